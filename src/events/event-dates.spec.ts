import fc from 'fast-check';
import { toDateObject } from './event-dates';

describe('toDateObject', () => {
  it('shows a London summer evening in British Summer Time', () => {
    expect(toDateObject(1_781_980_200, 'Europe/London')).toEqual({
      date: '2026-06-20',
      formatted: 'Sat 20 Jun 2026 7:30 PM',
      iso: '2026-06-20T19:30:00+01:00',
      time: '19:30',
      timezone: '+01:00',
      unix: 1_781_980_200,
    });
  });

  it('shows a London winter evening in GMT as +00:00', () => {
    expect(toDateObject(1_796_497_200, 'Europe/London')).toEqual({
      date: '2026-12-05',
      formatted: 'Sat 5 Dec 2026 7:00 PM',
      iso: '2026-12-05T19:00:00+00:00',
      time: '19:00',
      timezone: '+00:00',
      unix: 1_796_497_200,
    });
  });

  it('follows the spring-forward boundary (2026-03-29 01:00 UTC in London)', () => {
    expect(toDateObject(1_774_744_200, 'Europe/London').iso).toBe(
      '2026-03-29T00:30:00+00:00',
    );
    expect(toDateObject(1_774_745_999, 'Europe/London').iso).toBe(
      '2026-03-29T00:59:59+00:00',
    );
    expect(toDateObject(1_774_746_000, 'Europe/London').iso).toBe(
      '2026-03-29T02:00:00+01:00',
    );
    expect(toDateObject(1_774_747_800, 'Europe/London')).toEqual({
      date: '2026-03-29',
      formatted: 'Sun 29 Mar 2026 2:30 AM',
      iso: '2026-03-29T02:30:00+01:00',
      time: '02:30',
      timezone: '+01:00',
      unix: 1_774_747_800,
    });
  });

  it('tells apart the repeated hour of the autumn boundary', () => {
    const first = toDateObject(1_792_888_200, 'Europe/London');
    const second = toDateObject(1_792_891_800, 'Europe/London');
    expect([first.iso, second.iso]).toEqual([
      '2026-10-25T01:30:00+01:00',
      '2026-10-25T01:30:00+00:00',
    ]);
    expect(first.formatted).toBe(second.formatted);
    expect(first.formatted).toBe('Sun 25 Oct 2026 1:30 AM');
  });

  it('shows New York in EDT and EST, on the local date', () => {
    // 2026-07-05 00:00 UTC is the evening of the 4th in New York.
    expect(toDateObject(1_783_209_600, 'America/New_York')).toEqual({
      date: '2026-07-04',
      formatted: 'Sat 4 Jul 2026 8:00 PM',
      iso: '2026-07-04T20:00:00-04:00',
      time: '20:00',
      timezone: '-04:00',
      unix: 1_783_209_600,
    });
    expect(toDateObject(1_768_519_800, 'America/New_York')).toEqual({
      date: '2026-01-15',
      formatted: 'Thu 15 Jan 2026 6:30 PM',
      iso: '2026-01-15T18:30:00-05:00',
      time: '18:30',
      timezone: '-05:00',
      unix: 1_768_519_800,
    });
  });

  it('shows Tokyo at +09:00, on the next local day', () => {
    expect(toDateObject(1_798_729_200, 'Asia/Tokyo')).toEqual({
      date: '2027-01-01',
      formatted: 'Fri 1 Jan 2027 12:00 AM',
      iso: '2027-01-01T00:00:00+09:00',
      time: '00:00',
      timezone: '+09:00',
      unix: 1_798_729_200,
    });
  });

  it('shows Sydney in AEDT (summer, +11:00) and AEST (winter, +10:00)', () => {
    expect(toDateObject(1_767_996_000, 'Australia/Sydney')).toEqual({
      date: '2026-01-10',
      formatted: 'Sat 10 Jan 2026 9:00 AM',
      iso: '2026-01-10T09:00:00+11:00',
      time: '09:00',
      timezone: '+11:00',
      unix: 1_767_996_000,
    });
    expect(toDateObject(1_783_674_000, 'Australia/Sydney').iso).toBe(
      '2026-07-10T19:00:00+10:00',
    );
  });

  it('keeps fractional-hour offsets', () => {
    expect(toDateObject(1_783_674_000, 'Asia/Kolkata').iso).toBe(
      '2026-07-10T14:30:00+05:30',
    );
    expect(toDateObject(1_783_674_000, 'America/St_Johns').iso).toBe(
      '2026-07-10T06:30:00-02:30',
    );
    expect(toDateObject(1_783_674_000, 'Pacific/Chatham').iso).toBe(
      '2026-07-10T21:45:00+12:45',
    );
  });

  it('writes UTC as +00:00', () => {
    expect(toDateObject(1_772_304_330, 'UTC')).toEqual({
      date: '2026-02-28',
      formatted: 'Sat 28 Feb 2026 6:45 PM',
      iso: '2026-02-28T18:45:30+00:00',
      time: '18:45',
      timezone: '+00:00',
      unix: 1_772_304_330,
    });
  });

  it.each([
    [1_777_593_600, '00:00', 'Fri 1 May 2026 12:00 AM'],
    [1_777_636_800, '12:00', 'Fri 1 May 2026 12:00 PM'],
    [1_777_640_340, '12:59', 'Fri 1 May 2026 12:59 PM'],
    [1_777_679_999, '23:59', 'Fri 1 May 2026 11:59 PM'],
  ])('writes %i as %s, %s (12-hour clock edges)', (unix, time, formatted) => {
    const date = toDateObject(unix, 'UTC');
    expect(date.time).toBe(time);
    expect(date.formatted).toBe(formatted);
  });

  it('has every field agree with iso, for any instant and zone', () => {
    const zones = [
      'UTC',
      'Europe/London',
      'Europe/Berlin',
      'America/New_York',
      'America/Los_Angeles',
      'America/St_Johns',
      'Asia/Tokyo',
      'Asia/Kolkata',
      'Australia/Sydney',
      'Pacific/Chatham',
      'Pacific/Kiritimati',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 946_684_800, max: 4_102_444_800 }), // 2000–2100
        fc.constantFrom(...zones),
        (unix, zone) => {
          const d = toDateObject(unix, zone);
          expect(d.unix).toBe(unix);
          expect(Date.parse(d.iso)).toBe(unix * 1000);
          expect(d.iso).toMatch(
            /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/,
          );
          expect(d.iso.startsWith(`${d.date}T${d.time}:`)).toBe(true);
          expect(d.iso.endsWith(d.timezone)).toBe(true);
          const [, y, mo, day, h, mi] =
            /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(d.iso)!.map(Number);
          const weekday = new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            weekday: 'short',
          }).format(unix * 1000);
          const month = new Date(Date.UTC(2000, mo - 1, 1)).toLocaleString(
            'en-US',
            { month: 'short', timeZone: 'UTC' },
          );
          const h12 = h % 12 === 0 ? 12 : h % 12;
          expect(d.formatted).toBe(
            `${weekday} ${day} ${month} ${y} ${h12}:${String(mi).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
