import { toDateObject } from '../src/events/event-dates';
import {
  type BoxOfficePlan,
  type EventPlan,
  shiftLocalTime,
  zonedTimeToUnix,
} from './demo-catalogue';

/**
 * When the demo happens. The catalogue's dates are written for one day (CATALOGUE_DAY); a seed
 * for another day moves them with it, so that the demo never goes stale: orders over the months
 * before the seeding day, events that ended (with check-ins) and events on sale after it, each
 * with a status true on that day. The same seed and day give the same data.
 */

/** The day the catalogue's dates are written for: a seed for it leaves them where they are. */
export const CATALOGUE_DAY = '2026-07-01';

const DAY = 86_400;
/** Orders are spread over this many days before the seeding day (2025-01-01 for the catalogue's). */
const ORDER_DAYS = 546;
/** The box offices and their keys were set up this many days before the first order. */
const SETUP_DAYS = 31;
const YEAR_DAYS = 365.2425;

/** A `YYYY-MM-DD` day that exists, as the Unix time of its start (UTC); else null. */
function dayStart(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day
    ? null
    : ms / 1000;
}

/** The UTC offset, in seconds, of a wall-clock time in its zone. */
function utcOffset(local: string, timeZone: string): number {
  return Date.parse(`${local}Z`) / 1000 - zonedTimeToUnix(local, timeZone);
}

/** True when the wall-clock time exists in its zone (not skipped by a spring-forward change). */
export function localTimeExists(local: string, timeZone: string): boolean {
  return (
    toDateObject(zonedTimeToUnix(local, timeZone), timeZone).time ===
    local.slice(11)
  );
}

/** True when the event's start and end have different UTC offsets: it spans a DST change. */
function straddlesDstChange(start: string, end: string, timeZone: string) {
  return utcOffset(start, timeZone) !== utcOffset(end, timeZone);
}

function weekday(local: string): number {
  return new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay();
}

export class DemoCalendar {
  /** The demo's present: the last second before the seeding day (UTC). */
  readonly now: number;
  /** Orders are created between these instants, in id order. */
  readonly ordersFrom: number;
  readonly ordersUntil: number;
  /** When the demo box offices and their keys were created: before any event or order. */
  readonly setupAt: number;
  /**
   * Recurring events move by whole weeks, keeping their weekday (the comedy night stays on a
   * Saturday), rounded down so that nothing the catalogue has on sale within a window after its
   * day starts later than that window after the seeding day.
   */
  private readonly weeks: number;
  /** Events tied to their date (New Year, a DST change) move by whole years instead. */
  private readonly years: number;

  /** The calendar of a seed for `today` (`YYYY-MM-DD`); a RangeError names a bad day. */
  constructor(readonly today: string) {
    const start = dayStart(today);
    if (start === null) {
      throw new RangeError(`today must be a day as YYYY-MM-DD, got "${today}"`);
    }
    this.now = start - 1;
    this.ordersUntil = this.now;
    this.ordersFrom = start - ORDER_DAYS * DAY;
    this.setupAt = this.ordersFrom - SETUP_DAYS * DAY;
    const days = (start - (dayStart(CATALOGUE_DAY) as number)) / DAY;
    this.weeks = Math.floor(days / 7);
    this.years = Math.round(days / YEAR_DAYS);
  }

  /**
   * Whether the demo's present is still to come at `atMs` (by default the clock's time): a seed
   * for such a day would store times ahead of the clock, which no writer may (docs/API.md,
   * "Timestamps"), so it is refused.
   */
  isAhead(atMs: number = Date.now()): boolean {
    return this.now * 1000 > atMs;
  }

  /** The day a demo was seeded for, from when its box offices were set up (`setupAt`). */
  static dayOfSetup(setupAt: number): string {
    const start = setupAt + (SETUP_DAYS + ORDER_DAYS) * DAY;
    return new Date(start * 1000).toISOString().slice(0, 10);
  }

  /** The calendar of the UTC day `at` falls on (by default, the day it runs). */
  static of(at: Date = new Date()): DemoCalendar {
    return new DemoCalendar(at.toISOString().slice(0, 10));
  }

  /** The box offices' catalogues, their events moved to this calendar's day. */
  plans(offices: readonly BoxOfficePlan[]): BoxOfficePlan[] {
    return offices.map((office) => ({
      ...office,
      events: office.events.map((event) => this.move(event)),
    }));
  }

  /** A catalogue event, its times (and a cancellation's) moved by the same number of days. */
  private move(plan: EventPlan): EventPlan {
    const days = plan.oneOff ? this.yearsLater(plan) : this.weeksLater(plan);
    if (days === 0) return plan;
    const shift = (local: string) => shiftLocalTime(local, days);
    return {
      ...plan,
      start: shift(plan.start),
      end: shift(plan.end),
      ...(plan.cancelled && {
        cancelled: {
          onSale: shift(plan.cancelled.onSale),
          at: shift(plan.cancelled.at),
        },
      }),
    };
  }

  /** Days to the same weekday `weeks` later, a week earlier while a time would not exist. */
  private weeksLater(plan: EventPlan): number {
    const exists = (days: number) =>
      localTimeExists(shiftLocalTime(plan.start, days), plan.timezone) &&
      localTimeExists(shiftLocalTime(plan.end, days), plan.timezone);
    let days = this.weeks * 7;
    // A skipped hour comes once a year: a week or two earlier is clear of it.
    for (let tries = 0; tries < 3 && !exists(days); tries++) days -= 7;
    return days;
  }

  /**
   * Days to the same date `years` later. An event that spans a DST change moves on to the
   * nearest day of its weekday that spans the change of that year (the change's date moves).
   */
  private yearsLater(plan: EventPlan): number {
    if (this.years === 0) return 0;
    const [y, m, d] = plan.start.slice(0, 10).split('-').map(Number);
    const sameDate =
      (Date.UTC(y + this.years, m - 1, d) - Date.UTC(y, m - 1, d)) /
      (DAY * 1000);
    const { start, end, timezone } = plan;
    if (!straddlesDstChange(start, end, timezone)) return sameDate;
    for (let nudge = 0; nudge <= 10; nudge++) {
      for (const candidate of [sameDate - nudge, sameDate + nudge]) {
        const from = shiftLocalTime(start, candidate);
        const to = shiftLocalTime(end, candidate);
        if (
          weekday(from) === weekday(start) &&
          localTimeExists(from, timezone) &&
          localTimeExists(to, timezone) &&
          straddlesDstChange(from, to, timezone)
        ) {
          return candidate;
        }
      }
    }
    return sameDate; // the zone no longer changes its clocks
  }
}

/** The calendar the catalogue is written for: its dates as they are. */
export const CATALOGUE_CALENDAR = new DemoCalendar(CATALOGUE_DAY);
