/**
 * Checks events whose values are not known one by one: their shape is the document's Event
 * schema (openapi.json, which a unit spec ties to the field table), and the rules of docs/API.md
 * that tie its fields together are checked here.
 */
import { toDateObject } from '../../src/events/event-dates';
import { schemaProblems } from './openapi-contract';

interface TicketTypeBody {
  id: string;
  group_id: string | null;
  status: string;
  type: string;
  price: number;
  quantity: number;
  sort_order: number;
}
interface TicketGroupBody {
  id: string;
  sort_order: number;
  ticket_ids: string[];
}
export interface EventBody {
  id: string;
  start: { unix: number };
  end: { unix: number };
  timezone: string;
  ticket_groups: TicketGroupBody[];
  ticket_types: TicketTypeBody[];
  payment_methods: Record<string, unknown>[];
  tickets_available: string;
  [key: string]: unknown;
}

const num = (id: string) => Number(id.slice(id.indexOf('_') + 1));

/** Sorted by sort_order, then numeric id. */
const isSorted = (items: { id: string; sort_order: number }[]) =>
  items.every(
    (item, i) =>
      i === 0 ||
      items[i - 1].sort_order < item.sort_order ||
      (items[i - 1].sort_order === item.sort_order &&
        num(items[i - 1].id) < num(item.id)),
  );

/**
 * Checks an event's shape and the rules of docs/API.md that relate its fields: dates in the
 * event's zone, `tickets_available`, the two sort orders, groups and types naming each other.
 */
export function expectWellFormedEvent(body: Record<string, unknown>) {
  expect(schemaProblems('Event', body)).toEqual([]);
  const event = body as EventBody;
  expect(event.start).toEqual(toDateObject(event.start.unix, event.timezone));
  expect(event.end).toEqual(toDateObject(event.end.unix, event.timezone));
  for (const type of event.ticket_types) {
    if (type.type === 'free') expect(type.price).toBe(0);
    if (type.status === 'sold_out') expect(type.quantity).toBe(0);
  }
  for (const group of event.ticket_groups) {
    for (const id of group.ticket_ids) {
      expect(id).toMatch(/^tt_[1-9]\d*$/);
      const type = event.ticket_types.find((t) => t.id === id);
      expect({ group: group.id, type: type?.group_id }).toEqual({
        group: group.id,
        type: group.id,
      });
    }
    // And the other way: the types that name the group, in the event's order.
    expect(group.ticket_ids).toEqual(
      event.ticket_types
        .filter((t) => t.group_id === group.id)
        .map((t) => t.id),
    );
  }
  expect(isSorted(event.ticket_types)).toBe(true);
  expect(isSorted(event.ticket_groups)).toBe(true);
  const available = event.ticket_types.some(
    (t) => t.status === 'on_sale' && t.quantity > 0,
  );
  expect(event.tickets_available).toBe(String(available));
}
