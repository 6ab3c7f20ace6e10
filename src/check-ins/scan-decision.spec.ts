import fc from 'fast-check';
import { type RecordedScan, decideScan, inScanOrder } from './scan-decision';

const scan = (
  id: number,
  quantity: number,
  checkInAt: number,
  createdAt = checkInAt,
): RecordedScan => ({ id, quantity, checkInAt, createdAt });

/** The invariant: in scan order, the running sum of quantity is always 0 or 1. */
function keepsInvariant(history: readonly RecordedScan[]): boolean {
  let sum = 0;
  for (const s of [...history].sort(inScanOrder)) {
    sum += s.quantity;
    if (sum !== 0 && sum !== 1) return false;
  }
  return true;
}

describe('decideScan', () => {
  it('lets a ticket in, out and in again, and refuses a second entry or exit', () => {
    const inAt10 = scan(1, 1, 10);
    expect(decideScan([], 1, 10, null, false)).toEqual({ accepted: true });
    expect(decideScan([], -1, 10, null, false)).toEqual({
      accepted: false,
      reason: 'NOT_CHECKED_IN',
      deciding: null,
    });
    expect(decideScan([inAt10], 1, 20, null, false)).toEqual({
      accepted: false,
      reason: 'ALREADY_CHECKED_IN',
      deciding: inAt10,
    });
    const outAt20 = scan(2, -1, 20);
    expect(decideScan([inAt10], -1, 20, null, false)).toEqual({
      accepted: true,
    });
    expect(decideScan([inAt10, outAt20], -1, 30, null, false)).toEqual({
      accepted: false,
      reason: 'NOT_CHECKED_IN',
      deciding: outAt20,
    });
    expect(decideScan([outAt20, inAt10], 1, 30, null, false)).toEqual({
      accepted: true,
    });
  });

  it('fits an offline scan that is the latest, and refuses one a later scan follows', () => {
    // In at 10, recorded at once; an offline check-out made at 40, uploaded at 90, fits.
    const history = [scan(1, 1, 10)];
    expect(decideScan(history, -1, 40, null, false)).toEqual({
      accepted: true,
    });
    // In at 10, out at 20, in again at 60: a check-in made offline at 40 would be a second
    // entry before the one at 60, and a check-out made at 15 a second exit before 20.
    const busy = [scan(1, 1, 10), scan(2, -1, 20), scan(3, 1, 60)];
    expect(decideScan(busy, 1, 40, null, false)).toEqual({
      accepted: false,
      reason: 'ALREADY_CHECKED_IN',
      deciding: busy[2],
    });
    expect(decideScan(busy, -1, 15, null, false)).toEqual({
      accepted: false,
      reason: 'NOT_CHECKED_IN',
      deciding: busy[1],
    });
    // The state at the scan's moment decides first: out at 5 (before any entry).
    expect(decideScan(busy, -1, 5, null, false)).toEqual({
      accepted: false,
      reason: 'NOT_CHECKED_IN',
      deciding: null,
    });
  });

  it('places a scan after every scan made at the same second (recorded earlier)', () => {
    const inAt10 = scan(1, 1, 10, 50);
    expect(decideScan([inAt10], -1, 10, null, false)).toEqual({
      accepted: true,
    });
    expect(decideScan([inAt10], 1, 10, null, false)).toMatchObject({
      reason: 'ALREADY_CHECKED_IN',
    });
  });

  it('refuses a live check-in of a void ticket whatever the second, an offline one unless made before voided_at', () => {
    const inAt10 = scan(1, 1, 10);
    const refused = (deciding: RecordedScan | null) => ({
      accepted: false,
      reason: 'TICKET_VOID',
      deciding,
    });
    // Live: made now, which may be the void's own second or even (clock) one before it.
    expect(decideScan([], 1, 30, 30, false)).toEqual(refused(null));
    expect(decideScan([], 1, 29, 30, false)).toEqual(refused(null));
    expect(decideScan([], 1, 31, 30, false)).toEqual(refused(null));
    // Offline: strictly before voided_at only.
    expect(decideScan([], 1, 29, 30, true)).toEqual({ accepted: true });
    expect(decideScan([], 1, 30, 30, true)).toEqual(refused(null));
    expect(decideScan([inAt10], 1, 31, 30, true)).toEqual(refused(inAt10));
    // Before the void, the history still decides.
    expect(decideScan([inAt10], 1, 20, 30, true)).toEqual({
      accepted: false,
      reason: 'ALREADY_CHECKED_IN',
      deciding: inAt10,
    });
  });

  it('decides a check-out of a void ticket by its state alone', () => {
    const inAt10 = scan(1, 1, 10);
    expect(decideScan([inAt10], -1, 31, 30, false)).toEqual({
      accepted: true,
    });
    expect(decideScan([inAt10], -1, 31, 30, true)).toEqual({
      accepted: true,
    });
    expect(decideScan([], -1, 31, 30, false)).toEqual({
      accepted: false,
      reason: 'NOT_CHECKED_IN',
      deciding: null,
    });
  });

  it('accepts exactly the scans that keep the invariant (any history built by it, any scan)', () => {
    const step = fc.record({
      quantity: fc.constantFrom<1 | -1>(1, -1),
      at: fc.integer({ min: 0, max: 40 }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const history: RecordedScan[] = [];
        for (const [i, { quantity, at }] of steps.entries()) {
          // Recorded now: after every scan recorded before it.
          const candidate = scan(i + 1, quantity, at, 1_000 + i);
          const decision = decideScan(history, quantity, at, null, false);
          expect(decision.accepted).toBe(
            keepsInvariant([...history, candidate]),
          );
          if (decision.accepted) history.push(candidate);
          else if (decision.deciding !== null) {
            expect(history).toContainEqual(decision.deciding);
          }
        }
        expect(keepsInvariant(history)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
