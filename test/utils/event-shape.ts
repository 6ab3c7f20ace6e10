/**
 * The shape every Event resource has (docs/API.md, Resources: Event, TicketGroup, TicketType),
 * and the rules that tie its fields together. For checking many events whose values are not
 * known one by one.
 */
import { toDateObject } from '../../src/events/event-dates';
import { dateObject, integer, nullOr, prefixedId } from './shape-matchers';

const flag = expect.stringMatching(/^(true|false)$/);
const httpsUrl = expect.stringMatching(/^https:\/\/[^\s/]+\/\S*$/);

export function ticketTypeShape() {
  return {
    object: 'ticket_type',
    id: prefixedId('tt'),
    access_code: nullOr(expect.any(String)),
    booking_fee: integer,
    description: nullOr(expect.any(String)),
    group_id: nullOr(prefixedId('tg')),
    max_per_order: integer,
    min_per_order: integer,
    name: expect.any(String),
    price: integer,
    status: expect.stringMatching(/^(on_sale|sold_out|unavailable|hidden)$/),
    sort_order: integer,
    type: expect.stringMatching(/^(paid|free|donation)$/),
    quantity: integer,
    quantity_total: integer,
    quantity_issued: integer,
    quantity_held: integer,
    quantity_in_baskets: integer,
  };
}

export function ticketGroupShape() {
  return {
    id: prefixedId('tg'),
    max_per_order: nullOr(integer),
    name: expect.any(String),
    sort_order: integer,
    ticket_ids: expect.any(Array),
  };
}

export function eventShape() {
  return {
    object: 'event',
    id: prefixedId('ev'),
    access_code: nullOr(expect.any(String)),
    call_to_action: expect.any(String),
    created_at: integer,
    currency: expect.stringMatching(/^[a-z]{3}$/),
    description: nullOr(expect.any(String)),
    end: dateObject,
    event_series_id: prefixedId('es'),
    images: { header: httpsUrl, thumbnail: httpsUrl },
    name: expect.any(String),
    online_event: flag,
    payment_methods: expect.any(Array),
    private: flag,
    start: dateObject,
    status: expect.stringMatching(/^(draft|published|sales_closed|cancelled)$/),
    ticket_groups: expect.any(Array),
    ticket_types: expect.any(Array),
    tickets_available: flag,
    timezone: expect.stringMatching(/^[A-Za-z_]+(\/[A-Za-z_+-]+)*$/),
    total_issued_tickets: integer,
    total_orders: integer,
    url: httpsUrl,
    venue: {
      name: nullOr(expect.any(String)),
      postal_code: nullOr(expect.any(String)),
    },
  };
}

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
  expect(body).toEqual(eventShape());
  const event = body as EventBody;
  expect(event.start).toEqual(toDateObject(event.start.unix, event.timezone));
  expect(event.end).toEqual(toDateObject(event.end.unix, event.timezone));
  for (const type of event.ticket_types) {
    expect(type).toEqual(ticketTypeShape());
    if (type.type === 'free') expect(type.price).toBe(0);
    if (type.status === 'sold_out') expect(type.quantity).toBe(0);
  }
  for (const group of event.ticket_groups) {
    expect(group).toEqual(ticketGroupShape());
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
