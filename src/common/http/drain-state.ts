import { Injectable } from '@nestjs/common';

/**
 * Whether this instance is draining (docs/API.md, Shutdown): from the moment a SIGTERM or SIGINT
 * starts the drain until the process exits. Set once, by the graceful shutdown; read by whatever
 * answers differently while the instance drains (the shutdown gate, which answers new requests
 * on idle connections 503; a readiness check).
 */
@Injectable()
export class DrainState {
  /** The signal that started the drain; null while the instance serves. */
  private signal: string | null = null;

  /** True from the first signal on. */
  get draining(): boolean {
    return this.signal !== null;
  }

  /** Starts the drain; false if it had started already. */
  begin(signal: string): boolean {
    if (this.signal !== null) return false;
    this.signal = signal;
    return true;
  }
}
