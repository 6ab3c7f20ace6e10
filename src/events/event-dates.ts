import { json } from '../common/resources/field-table';

/**
 * The date object (docs/API.md, Date objects) for an instant shown in an event's IANA time zone,
 * DST included:
 * `{ date: '2026-06-20', formatted: 'Sat 20 Jun 2026 7:30 PM', iso: '2026-06-20T19:30:00+01:00',
 *    time: '19:30', timezone: '+01:00', unix: 1781980200 }`.
 */
export interface DateObject {
  date: string;
  formatted: string;
  iso: string;
  time: string;
  timezone: string;
  unix: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Numeric parts only: locale month and weekday names vary (en-GB says `Sept`).
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');

export function toDateObject(unix: number, timeZone: string): DateObject {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(unix * 1000)) {
    parts[part.type] = part.value;
  }
  // `longOffset` gives `GMT+01:00`, or plain `GMT` at UTC+0.
  const offset = parts.timeZoneName.replace('GMT', '') || '+00:00';
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const date = `${year}-${pad(month)}-${pad(day)}`;
  const time = `${pad(hour)}:${pad(minute)}`;
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  const weekday =
    WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  return {
    date,
    formatted: `${weekday} ${day} ${MONTHS[month - 1]} ${year} ${hour12}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`,
    iso: `${date}T${time}:${parts.second}${offset}`,
    time,
    timezone: offset,
    unix,
  };
}

const DATE_CACHE_SIZE = 2000;
const dateJsonCache = new Map<string, string>();

/**
 * A date object's JSON text, memoised (bounded, cleared when full): a page of events shows few
 * distinct instants per zone again and again, and formatting in a time zone is the costly part.
 */
export function dateObjectJson(unix: number, timeZone: string): string {
  const key = `${unix} ${timeZone}`;
  let text = dateJsonCache.get(key);
  if (text === undefined) {
    text = JSON.stringify(toDateObject(unix, timeZone));
    if (dateJsonCache.size >= DATE_CACHE_SIZE) dateJsonCache.clear();
    dateJsonCache.set(key, text);
  }
  return text;
}

/**
 * A field served as a date object: the instant in `unixColumn` shown in the zone of
 * `timezoneColumn` (the event's, its series', its box office's); `null` where the instant is null.
 */
export const dateObjectField = (unixColumn: string, timezoneColumn: string) =>
  json.computed(
    { unix: unixColumn, timezone: timezoneColumn },
    ({ unix, timezone }) =>
      unix === null ? 'null' : dateObjectJson(Number(unix), timezone as string),
  );
