import {
  ArrayOf,
  COUNT,
  INT32,
  Id,
  Integer,
  Literal,
  MAX_DESCRIPTION,
  NullableId,
  NullableInteger,
  NullableText,
  OneOf,
  Text,
  idSchema,
} from '../openapi/api-properties';
import { TICKET_TYPE_KINDS, TICKET_TYPE_STATUSES } from '../statuses';
import { RESOURCE, idOf } from '../resources/resource-identities';

// An event's ticket types and groups, as its own and a series template's (default_ticket_types)
// carry them: exactly what src/events/event.fields.ts emits for each.

export const MAX_TICKET_TYPES = 200;
export const MAX_TICKET_GROUPS = 100;

export class TicketTypeDto {
  @Literal(RESOURCE.ticketType.object)
  object: string;

  @Id(RESOURCE.ticketType.prefix)
  id: string;

  @NullableText(64, {
    description: 'The code that reveals a hidden ticket type',
  })
  access_code: string | null;

  @Integer(INT32, { description: 'Booking fee per ticket, minor units' })
  booking_fee: number;

  @NullableText(MAX_DESCRIPTION, { description: 'Description' })
  description: string | null;

  @NullableId(RESOURCE.ticketGroup.prefix, {
    description: 'The group it is shown in',
  })
  group_id: string | null;

  @Integer(INT32, {
    description: 'Most tickets of this type in one order',
    example: 10,
  })
  max_per_order: number;

  @Integer(INT32, {
    description: 'Fewest tickets of this type in one order',
    example: 1,
  })
  min_per_order: number;

  @Text(200, { example: 'General Admission' })
  name: string;

  @Integer(INT32, {
    description: 'Price, minor units (0 when free)',
    example: 2500,
  })
  price: number;

  @OneOf(TICKET_TYPE_STATUSES, {
    description: 'sold_out exactly when quantity is 0',
  })
  status: string;

  @Integer(INT32, { description: 'Sort index in the UI' })
  sort_order: number;

  @OneOf(TICKET_TYPE_KINDS)
  type: string;

  @Integer(COUNT, {
    description:
      'Still available for purchase: quantity_total − quantity_issued − quantity_held − quantity_in_baskets, never below 0; 0 when sold_out',
    example: 120,
  })
  quantity: number;

  @Integer(COUNT, { description: 'Capacity', example: 200 })
  quantity_total: number;

  @Integer(COUNT, {
    description:
      'Its valid issued tickets (0 in a series template: nothing is issued against it)',
    example: 80,
  })
  quantity_issued: number;

  @Integer(COUNT, {
    description: 'Held back from sale (0: none are held here)',
  })
  quantity_held: number;

  @Integer(COUNT, {
    description: 'In buyers’ baskets (0: this service keeps no baskets)',
  })
  quantity_in_baskets: number;
}

export class TicketGroupDto {
  @Id(RESOURCE.ticketGroup.prefix)
  id: string;

  @NullableInteger(INT32, {
    description: 'Most tickets of the group in one order; null for no limit',
  })
  max_per_order: number | null;

  @Text(200, { example: 'Seating' })
  name: string;

  @Integer(INT32, { description: 'Sort index in the UI' })
  sort_order: number;

  @ArrayOf(String, MAX_TICKET_TYPES, {
    items: idSchema(RESOURCE.ticketType.prefix),
    description: 'Its ticket types, in their sort order',
    example: [1, 2].map((n) => idOf(RESOURCE.ticketType, n)),
  })
  ticket_ids: string[];
}
