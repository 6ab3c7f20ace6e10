import { CURRENCY_CODES } from '../../common/currencies';
import { DateObjectDto } from '../../common/dto/date-object.dto';
import { ImagesDto } from '../../common/dto/images.dto';
import {
  MAX_PAYMENT_METHODS,
  PaymentMethodDto,
} from '../../common/dto/payment-method.dto';
import {
  MAX_TICKET_GROUPS,
  MAX_TICKET_TYPES,
  TicketGroupDto,
  TicketTypeDto,
} from '../../common/dto/ticket-type.dto';
import { VenueDto } from '../../common/dto/venue.dto';
import {
  ArrayOf,
  COUNT,
  FLAG,
  HTTPS_URL,
  Id,
  Integer,
  Literal,
  MAX_DESCRIPTION,
  Nested,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { EVENT_STATUSES } from '../../common/statuses';
import {
  RESOURCE,
  pathOf,
  itemPathOf,
} from '../../common/resources/resource-identities';

// Response schemas for the OpenAPI document: exactly the fields events/event.fields.ts emits, with
// the database's column lengths and the bounds of docs/API.md (Limits: "Response fields").

export class EventDto {
  @Literal(RESOURCE.event.object)
  object: string;

  @Id(RESOURCE.event.prefix)
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

  @Id(RESOURCE.eventSeries.prefix)
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
  path: pathOf(RESOURCE.event),
  prefix: RESOURCE.event.prefix,
}) {}

/** The events of one series, under its path (`/v1/event_series/es_3/events`). */
export class SeriesEventListDto extends PageDto(EventDto, {
  name: 'SeriesEventList',
  path: `${itemPathOf(RESOURCE.eventSeries, 1)}/events`,
  pathPattern: `${itemPathOf(RESOURCE.eventSeries, '[1-9][0-9]*')}/events`,
  prefix: RESOURCE.event.prefix,
}) {}
