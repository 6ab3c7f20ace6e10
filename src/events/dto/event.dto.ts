import { CURRENCY_CODES } from '../../common/currencies';
import {
  ArrayOf,
  COUNT,
  HTTPS_URL,
  INT32,
  Id,
  Integer,
  Literal,
  Nested,
  NullableId,
  NullableInteger,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
  idSchema,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { DateObjectDto } from '../../common/dto/date-object.dto';
import { ImagesDto } from '../../common/dto/images.dto';
import { PaymentMethodDto } from '../../common/dto/payment-method.dto';
import { VenueDto } from '../../common/dto/venue.dto';
import { EVENT_STATUSES } from '../entities/event.entity';
import {
  TICKET_TYPE_KINDS,
  TICKET_TYPE_STATUSES,
} from '../entities/ticket-type.entity';

// Response schemas for the OpenAPI document: exactly the fields events/event.fields.ts emits, with
// the database's column lengths and the bounds of docs/API.md (Limits: "Response fields").

export const MAX_TICKET_TYPES = 200;
export const MAX_TICKET_GROUPS = 100;
export const MAX_PAYMENT_METHODS = 20;
/** Descriptions are TEXT columns; this bound is documented, not enforced by the database. */
export const MAX_DESCRIPTION = 10_000;

const FLAG = ['true', 'false'] as const;

export class TicketTypeDto {
  @Literal('ticket_type')
  object: string;

  @Id('tt_')
  id: string;

  @NullableText(64, {
    description: 'The code that reveals a hidden ticket type',
  })
  access_code: string | null;

  @Integer(INT32, { description: 'Booking fee per ticket, minor units' })
  booking_fee: number;

  @NullableText(MAX_DESCRIPTION, { description: 'Description' })
  description: string | null;

  @NullableId('tg_', { description: 'The group it is shown in' })
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
  @Id('tg_')
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
    items: idSchema('tt_'),
    description: 'Its ticket types, in their sort order',
    example: ['tt_1', 'tt_2'],
  })
  ticket_ids: string[];
}

export class EventDto {
  @Literal('event')
  object: string;

  @Id('ev_')
  id: string;

  @NullableText(64, { description: 'The code that opens a protected event' })
  access_code: string | null;

  @Text(100, { example: 'Buy tickets' })
  call_to_action: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds' })
  created_at: number;

  @OneOf(CURRENCY_CODES, { example: 'gbp' })
  currency: string;

  @NullableText(MAX_DESCRIPTION, { description: 'Description' })
  description: string | null;

  @Nested(DateObjectDto)
  end: DateObjectDto;

  @Id('es_')
  event_series_id: string;

  @Nested(ImagesDto)
  images: ImagesDto;

  @Text(300, { example: 'Summer Jazz Night' })
  name: string;

  @OneOf(FLAG)
  online_event: string;

  @ArrayOf(PaymentMethodDto, MAX_PAYMENT_METHODS)
  payment_methods: PaymentMethodDto[];

  @OneOf(FLAG)
  private: string;

  @Nested(DateObjectDto)
  start: DateObjectDto;

  @OneOf(EVENT_STATUSES)
  status: string;

  @ArrayOf(TicketGroupDto, MAX_TICKET_GROUPS)
  ticket_groups: TicketGroupDto[];

  @ArrayOf(TicketTypeDto, MAX_TICKET_TYPES)
  ticket_types: TicketTypeDto[];

  @OneOf(FLAG, {
    description:
      '"true" exactly when a ticket type is on_sale with quantity > 0',
  })
  tickets_available: string;

  @Text(64, {
    pattern: '^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$',
    description: 'IANA time zone',
    example: 'Europe/London',
  })
  timezone: string;

  @Integer(COUNT, { description: 'Its valid issued tickets' })
  total_issued_tickets: number;

  @Integer(COUNT, { description: 'Its completed orders' })
  total_orders: number;

  @Text(HTTPS_URL.maxLength, {
    ...HTTPS_URL,
    example: 'https://tickets.boxoffice.example/events/1',
  })
  url: string;

  @Nested(VenueDto)
  venue: VenueDto;
}

export class EventListDto extends PageDto(EventDto, {
  path: '/v1/events',
  prefix: 'ev_',
}) {}
