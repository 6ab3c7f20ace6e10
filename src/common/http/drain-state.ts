import { Injectable } from '@nestjs/common';

/**
 * Whether this instance is draining (docs/DESIGN.md, Shutdown): from the moment a SIGTERM or SIGINT
 * starts the drain until the process exits. Set once, by the graceful shutdown; read by whatever
 * answers differently while the instance drains (the shutdown gate, which answers new requests
 * on idle connections 503; a readiness check).
 */
@Injectable()
export class DrainState {
  private started = false;

  /** True from the first signal on. */
  get draining(): boolean {
    return this.started;
  }

  /** Starts the drain; false if it had started already. */
  begin(): boolean {
    if (this.started) return false;
    this.started = true;
    return true;
  }
}
