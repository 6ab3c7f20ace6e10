import { CheckInGenerator } from './check-in-generator';

describe('CheckInGenerator', () => {
  const now = 1_790_000_000;
  const HOUR = 3600;

  /** The scans of `count` valid tickets bought ten days before an event of these times. */
  function scans(startAt: number, endAt: number, count = 3000) {
    const generator = new CheckInGenerator(
      new Map([[1, { startAt, endAt, seriesId: 1 }]]),
      5,
      now,
    );
    return Array.from({ length: count }, (_, i) =>
      generator.rows({
        id: i + 1,
        box_office_id: 1,
        event_id: 1,
        status: 'valid',
        created_at: now - 240 * HOUR,
      }),
    );
  }

  it('records no scan made or uploaded after the demo’s present, for an event that ended just before it', () => {
    const tickets = scans(now - 2 * HOUR, now - 60);
    const rows = tickets.flat();
    expect(rows.filter((r) => Number(r.check_in_at) > now)).toEqual([]);
    expect(rows.filter((r) => Number(r.created_at) > now)).toEqual([]);
    // Check-outs still happen, those made before the present.
    expect(rows.some((r) => r.quantity === -1)).toBe(true);
    // Each ticket's scans, in the order made, go in, out, in: never out first, never twice in.
    for (const ticket of tickets) {
      expect(ticket.map((r) => r.quantity)).toEqual(
        [1, -1, 1].slice(0, ticket.length),
      );
    }
  });

  it('scans nothing of an event that has not ended', () => {
    expect(scans(now - HOUR, now + HOUR, 100).flat()).toEqual([]);
  });
});
