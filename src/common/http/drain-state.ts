import { Injectable } from '@nestjs/common';

/** What started the drain: the signal, and when (epoch milliseconds). */
export interface DrainStart {
  readonly signal: string;
  readonly at: number;
}

/**
 * Whether this instance is draining (docs/API.md, Shutdown): from the moment a SIGTERM or SIGINT
 * starts the drain until the process exits. Set once, by the graceful shutdown; read by whatever
 * answers differently while the instance drains (the shutdown gate, which answers new requests
 * on idle connections 503; a readiness check).
 */
@Injectable()
export class DrainState {
  private start: DrainStart | null = null;

  /** True from the first signal on. */
  get draining(): boolean {
    return this.start !== null;
  }

  /** The signal that started the drain, and when; null while the instance serves. */
  get started(): DrainStart | null {
    return this.start;
  }

  /** Starts the drain; false if it had started already. */
  begin(signal: string, at = Date.now()): boolean {
    if (this.start) return false;
    this.start = { signal, at };
    return true;
  }
}
