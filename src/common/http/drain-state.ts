import { Injectable } from '@nestjs/common';

/**
 * Whether this instance has begun to drain (docs/API.md, Shutdown). GracefulShutdown begins it,
 * first thing on SIGTERM or SIGINT; from then on the shutdown gate refuses new requests and
 * readiness answers 503, so a load balancer stops sending before the process stops.
 */
@Injectable()
export class DrainState {
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  begin(): void {
    this.started = true;
  }
}
