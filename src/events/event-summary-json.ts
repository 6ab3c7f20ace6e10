import { toDateObject } from './event-dates';
import { RESOURCE, idOf } from '../common/resources/resource-identities';

/** The event columns an order's `event_summary` is made of, as the driver returns them. */
const COLUMNS = [
  'id',
  'event_series_id',
  'name',
  'start_at',
  'end_at',
  'timezone',
  'venue_name',
  'venue_postal_code',
] as const;

export type EventSummaryColumns = Readonly<
  Record<(typeof COLUMNS)[number], unknown>
>;

interface CachedSummary {
  readonly columns: EventSummaryColumns;
  readonly json: string;
}

const CACHE_SIZE = 1000;
const cache = new Map<unknown, CachedSummary>();

/**
 * An order's `event_summary` JSON, memoised per event and checked against every column it is made
 * of, so it is never stale: a page of orders usually names few events, and formatting dates in a
 * time zone is the costly part. The cache is bounded (cleared when full).
 */
export function eventSummaryJson(event: EventSummaryColumns): string {
  const cached = cache.get(event.id);
  if (
    cached !== undefined &&
    COLUMNS.every((column) => cached.columns[column] === event[column])
  ) {
    return cached.json;
  }
  const timezone = event.timezone as string;
  const json = JSON.stringify({
    id: idOf(RESOURCE.event, String(event.id)),
    event_series_id: idOf(RESOURCE.eventSeries, String(event.event_series_id)),
    name: event.name,
    start_date: toDateObject(Number(event.start_at), timezone),
    end_date: toDateObject(Number(event.end_at), timezone),
    venue: { name: event.venue_name, postal_code: event.venue_postal_code },
  });
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(event.id, { columns: { ...event }, json });
  return json;
}
