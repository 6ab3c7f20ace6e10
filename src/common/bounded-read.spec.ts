import { sharedWhileRunning, within } from './bounded-read';

describe('bounded reads', () => {
  it('shares a read that still runs, however many callers give up waiting on it', async () => {
    const pending: ((value: number) => void)[] = [];
    const read = jest.fn(
      () => new Promise<number>((resolve) => pending.push(resolve)),
    );
    const reading = sharedWhileRunning(read);
    // Three probes, each giving up after 5 ms on a database that hangs.
    for (let i = 0; i < 3; i += 1) {
      expect(await within(reading(), 5)).toBeUndefined();
    }
    expect(read).toHaveBeenCalledTimes(1);
    pending[0](7);
    expect(await reading()).toBe(7);
    // Settled: the next call reads again.
    const next = reading();
    expect(read).toHaveBeenCalledTimes(2);
    pending[1](8);
    expect(await next).toBe(8);
  });

  it('reads again after a failed read, and within() takes a failure as no answer', async () => {
    let calls = 0;
    const reading = sharedWhileRunning(() =>
      ++calls === 1 ? Promise.reject(new Error('down')) : Promise.resolve(1),
    );
    expect(await within(reading(), 1000)).toBeUndefined();
    expect(await within(reading(), 1000)).toBe(1);
  });
});
