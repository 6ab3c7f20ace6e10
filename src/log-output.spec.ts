import { Writable } from 'node:stream';
import { LogOutput } from './log-output';

/**
 * A stdout stand-in: it takes each chunk when the test says (a reader that reads, or one that has
 * stopped), or fails every write (a reader that has gone).
 */
class FakeStdout extends Writable {
  readonly taken: string[] = [];
  private readonly waiting: (() => void)[] = [];

  constructor(private mode: 'take' | 'hold' | 'fail' = 'take') {
    super({ decodeStrings: false });
  }

  override _write(
    chunk: string,
    _encoding: BufferEncoding,
    callback: (error?: Error) => void,
  ): void {
    if (this.mode === 'fail') {
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      return;
    }
    const take = () => {
      this.taken.push(String(chunk));
      callback();
    };
    if (this.mode === 'take') take();
    else this.waiting.push(take);
  }

  /** The reader reads again: what waited is taken, and what comes next too. */
  readAgain(): void {
    this.mode = 'take';
    for (const take of this.waiting.splice(0)) take();
  }

  lines(): string[] {
    return this.taken.filter((chunk) => chunk !== '');
  }
}

/** A line of 100 bytes. */
const line = (n: number) => `${String(n).padStart(3, '0')} ${'x'.repeat(95)}\n`;

describe('LogOutput', () => {
  it('writes each line as it comes while stdout takes them', async () => {
    const stdout = new FakeStdout();
    const output = new LogOutput(stdout);
    output.write(line(1));
    output.write(line(2));
    await output.flushWithin(1_000);
    expect(stdout.lines()).toEqual([line(1), line(2)]);
  });

  it('keeps lines while stdout takes none, drops them past its bound, and says how many once it reads again', async () => {
    const stdout = new FakeStdout('hold');
    const output = new LogOutput(stdout, 1_000);
    // Ten 100-byte lines reach the bound; the next five are dropped.
    for (let n = 1; n <= 15; n++) output.write(line(n));
    stdout.readAgain();
    output.write(line(16));
    await output.flushWithin(1_000);

    const lines = stdout.lines();
    expect(lines.slice(0, 10)).toEqual(
      Array.from({ length: 10 }, (_, i) => line(i + 1)),
    );
    expect(JSON.parse(lines[10])).toEqual(
      expect.objectContaining({
        level: 40,
        context: 'LogOutput',
        dropped_lines: 5,
        msg: '5 log line(s) dropped: stdout took none while 1000 bytes of lines waited',
      }),
    );
    expect(lines.slice(11)).toEqual([line(16)]);
  });

  it('stops writing once a write fails (the reader has gone): no retry, no error thrown', async () => {
    const stdout = new FakeStdout('fail');
    const output = new LogOutput(stdout);
    output.write(line(1));
    await new Promise((resolve) => setImmediate(resolve));
    const writes = jest.spyOn(stdout, 'write');
    expect(() => output.write(line(2))).not.toThrow();
    expect(writes).not.toHaveBeenCalled();
    // Nothing left to wait for.
    const started = Date.now();
    await output.flushWithin(5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('waits for stdout to take what is written, and no longer than it is given', async () => {
    const stdout = new FakeStdout('hold');
    const output = new LogOutput(stdout);
    output.write(line(1));
    const started = Date.now();
    await output.flushWithin(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(stdout.lines()).toEqual([]);

    const flushed = output.flushWithin(5_000);
    stdout.readAgain();
    await flushed;
    expect(stdout.lines()).toEqual([line(1)]);
  });
});
