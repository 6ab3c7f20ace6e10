import type { Logger } from '@nestjs/common';

/**
 * A chore an instance runs every `periodMs` while it serves (a retention's cleanup): each instance
 * runs its own, a failure is logged as a warning and tried again next time, the timer never keeps
 * the process alive, and stopping waits for a run in progress.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly what: string,
    private readonly run: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(periodMs: number): void {
    this.timer = setInterval(() => {
      this.running = this.run().catch((error: unknown) =>
        this.logger.warn(
          `${this.what} failed, retrying later: ${String(error)}`,
        ),
      );
    }, periodMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
