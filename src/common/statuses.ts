// The statuses and kinds more than one resource carries (docs/API.md): a series has an event's
// statuses, a series template holds an event's ticket types, an order holds issued tickets. The
// entities' columns, the response schemas and the list filters all take them from here.

export const EVENT_STATUSES = [
  'draft',
  'published',
  'sales_closed',
  'cancelled',
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const TICKET_TYPE_STATUSES = [
  'on_sale',
  'sold_out',
  'unavailable',
  'hidden',
] as const;
export type TicketTypeStatus = (typeof TICKET_TYPE_STATUSES)[number];

export const TICKET_TYPE_KINDS = ['paid', 'free', 'donation'] as const;
export type TicketTypeKind = (typeof TICKET_TYPE_KINDS)[number];

export const ISSUED_TICKET_STATUSES = ['valid', 'void'] as const;
export type IssuedTicketStatus = (typeof ISSUED_TICKET_STATUSES)[number];
