import pino, { type DestinationStream, type Logger } from 'pino';

/** Bytes of lines held in memory while stdout takes none, at most: then new lines are dropped. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * Where the JSON log lines go: stdout, written through Node's own stream, so that logging never
 * holds up serving or exiting, whatever the reader of stdout does (docs/OPERATIONS.md, Logs).
 *
 * - A line is written at once when stdout takes it. A pipe (a log collector) is non-blocking in
 *   Node: lines its reader has not taken yet wait in memory, up to MAX_PENDING_BYTES; past it new
 *   lines are dropped, and once the reader takes lines again a warning says how many were lost.
 * - A pipe whose reader has gone (EPIPE, or any other write error) ends the output: lines are
 *   dropped from then on, without a retry.
 * - Nothing is written when the process exits: the shutdown gives the last lines a bounded time
 *   (`flushWithin`), then the process exits whatever became of them.
 *
 * pino's own destination (sonic-boom) writes synchronously when the process exits instead, and
 * retries a write that fails (a broken pipe as much as a full one) every 100 ms for as long as it
 * fails: a stopped server whose log reader had gone never exited.
 */
export class LogOutput implements DestinationStream {
  private broken = false;
  private dropped = 0;
  private reporter: Logger | null = null;

  constructor(
    private readonly stream: NodeJS.WritableStream & {
      readonly writableLength: number;
    },
    private readonly maxPendingBytes = MAX_PENDING_BYTES,
  ) {
    stream.on('error', () => {
      this.broken = true;
    });
  }

  write(line: string): void {
    if (this.broken) return;
    if (this.stream.writableLength >= this.maxPendingBytes) {
      this.dropped += 1;
      return;
    }
    if (this.dropped > 0) this.reportDropped();
    this.stream.write(line);
  }

  /**
   * Resolves once every line written so far has been taken by stdout, at once if the output is
   * broken, and after `timeoutMs` at the latest (a reader that does not read).
   */
  flushWithin(timeoutMs: number): Promise<void> {
    if (this.broken || this.stream.writableLength === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.stream.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.stream.once('error', done);
      // Written after every line before it: its callback says they are out.
      this.stream.write('', done);
    });
  }

  /** The warning, in the same JSON shape as every other line (pino's). */
  private reportDropped() {
    const dropped = this.dropped;
    this.dropped = 0;
    this.reporter ??= pino(
      { level: 'warn' },
      {
        write: (line: string) => this.stream.write(line),
      },
    );
    this.reporter.warn(
      { context: 'LogOutput', dropped_lines: dropped },
      `${dropped} log line(s) dropped: stdout took none while ${this.maxPendingBytes} bytes of lines waited`,
    );
  }
}

let stdoutOutput: LogOutput | null = null;

/** The process's one output to stdout (made on first use). */
export function stdoutLogOutput(): LogOutput {
  stdoutOutput ??= new LogOutput(process.stdout);
  return stdoutOutput;
}
