import { toDateObject } from './event-dates';

/** The event columns an order's `event_summary` is made of, as the driver returns them. */
export type EventSummaryColumns = Readonly<
  Record<'id' | 'name' | 'start_at' | 'end_at' | 'timezone', unknown>
>;

interface CachedSummary extends EventSummaryColumns {
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
    cached.name === event.name &&
    cached.start_at === event.start_at &&
    cached.end_at === event.end_at &&
    cached.timezone === event.timezone
  ) {
    return cached.json;
  }
  const timezone = event.timezone as string;
  const json = JSON.stringify({
    id: `ev_${String(event.id)}`,
    name: event.name,
    start_date: toDateObject(Number(event.start_at), timezone),
    end_date: toDateObject(Number(event.end_at), timezone),
  });
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(event.id, { ...event, json });
  return json;
}
