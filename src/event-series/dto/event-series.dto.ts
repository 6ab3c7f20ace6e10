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
  INT32,
  Id,
  Integer,
  Literal,
  MAX_DESCRIPTION,
  Nested,
  NullableInteger,
  NullableNested,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
  idSchema,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { EVENT_STATUSES } from '../../common/statuses';
import { RESOURCE, pathOf } from '../../common/resources/resource-identities';

/** The most vouchers one series lists: a bound of the document, not of the database. */
export const MAX_SERIES_VOUCHERS = 1_000;

// The response schema for the OpenAPI document: exactly the fields event-series.fields.ts emits.

export class EventSeriesDto {
  @Literal(RESOURCE.eventSeries.object)
  object: string;

  @Id(RESOURCE.eventSeries.prefix)
  id: string;

  @Text(300, { example: 'Comedy Night' })
  name: string;

  @NullableText(MAX_DESCRIPTION, { description: 'Description' })
  description: string | null;

  @OneOf(EVENT_STATUSES)
  status: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds' })
  created_at: number;

  @OneOf(CURRENCY_CODES, {
    description: 'The currency of its events',
    example: 'gbp',
  })
  currency: string;

  @Text(64, {
    pattern: '^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$',
    description: 'IANA time zone of its events',
    example: 'Europe/London',
  })
  timezone: string;

  @Nested(VenueDto)
  venue: VenueDto;

  @Nested(ImagesDto)
  images: ImagesDto;

  @Text(HTTPS_URL.maxLength, {
    ...HTTPS_URL,
    example: 'https://tickets.boxoffice.example/series/1',
  })
  url: string;

  @OneOf(FLAG)
  online_event: string;

  @OneOf(FLAG)
  private: string;

  @NullableText(64, { description: 'The code that opens a protected series' })
  access_code: string | null;

  @Text(100, { example: 'Buy tickets' })
  call_to_action: string;

  @ArrayOf(PaymentMethodDto, MAX_PAYMENT_METHODS)
  payment_methods: PaymentMethodDto[];

  @ArrayOf(TicketTypeDto, MAX_TICKET_TYPES, {
    description:
      'The ticket types a new date starts with: prices and capacities (quantity_total); nothing is issued, held or in a basket against a template. Their ids are the template’s own, apart from its events’ ticket types.',
  })
  default_ticket_types: TicketTypeDto[];

  @ArrayOf(TicketGroupDto, MAX_TICKET_GROUPS, {
    description: 'The groups of the default ticket types',
  })
  default_ticket_groups: TicketGroupDto[];

  @NullableInteger(INT32, {
    description:
      'The most tickets one date may sell in all; null for no limit beyond its ticket types’',
  })
  default_max_tickets_sold_per_occurrence: number | null;

  @ArrayOf(String, MAX_SERIES_VOUCHERS, {
    items: idSchema(RESOURCE.voucher.prefix),
    description:
      'The vouchers usable on it, by id: those naming it, and its box office’s usable on any event',
  })
  voucher_ids: string[];

  @NullableNested(DateObjectDto, {
    description:
      'The start of its first date whose end is after the request, in events’ list order; null when none is',
  })
  next_occurrence_date: DateObjectDto | null;

  @Integer(COUNT, {
    description: 'Its events whose end is after the request',
  })
  upcoming_occurrences: number;

  @Integer(COUNT, { description: 'Its events, any status' })
  total_occurrences: number;

  @Integer(COUNT, { description: 'Valid issued tickets of its events' })
  total_issued_tickets: number;

  @Integer(
    { format: 'int64', minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 },
    {
      description:
        'Σ (total − refund_amount) over the completed orders of its events, minor units of its currency',
    },
  )
  revenue: number;
}

export class EventSeriesListDto extends PageDto(EventSeriesDto, {
  path: pathOf(RESOURCE.eventSeries),
  prefix: RESOURCE.eventSeries.prefix,
}) {}
