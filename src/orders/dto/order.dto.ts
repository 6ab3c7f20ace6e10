import { CURRENCY_CODES } from '../../common/currencies';
import {
  ArrayOf,
  EMAIL,
  HTTPS_URL,
  INT32,
  Id,
  Integer,
  IntegerEnum,
  Literal,
  Nested,
  NullableId,
  NullableInteger,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
} from '../../common/http/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { ISSUED_TICKET_STATUSES } from '../entities/issued-ticket.entity';
import { LINE_ITEM_TYPES } from '../entities/line-item.entity';
import { ORDER_STATUSES, PAYMENT_METHOD_TYPES } from '../entities/order.entity';

// Response schemas for the OpenAPI document: exactly the fields orders/order.fields.ts emits, with
// the database's column lengths and the bounds of docs/API.md (Limits: "Response fields").

/** Custom questions and answers are stored as JSON text: these bounds are documented, not columns. */
export const MAX_CUSTOM_QUESTIONS = 50;
export const MAX_LINE_ITEMS = 100;
export const MAX_ISSUED_TICKETS = 1000;

export class CustomQuestionDto {
  @Text(500, { example: 'Dietary requirements' })
  question: string;

  @NullableText(2000, {
    description: 'The answer; null when not answered',
    example: 'Vegetarian',
  })
  answer: string | null;
}

export class AddressDto {
  @Text(300, { example: '12 High Street' })
  address_1: string;

  @NullableText(300, { description: 'Second line' })
  address_2: string | null;

  @NullableText(300, { description: 'Third line' })
  address_3: string | null;

  @NullableText(32, { description: 'Postal or zip code', example: 'SW1A 1AA' })
  postal_code: string | null;
}

export class BuyerDetailsDto {
  @Nested(AddressDto)
  address: AddressDto;

  @ArrayOf(CustomQuestionDto, MAX_CUSTOM_QUESTIONS)
  custom_questions: CustomQuestionDto[];

  @Text(EMAIL.maxLength, {
    pattern: EMAIL.pattern,
    description: 'As the buyer entered it (letter case kept)',
    example: 'jane.doe@example.com',
  })
  email: string;

  @Text(300, { example: 'Jane Doe' })
  name: string;

  @NullableText(64, {
    description: 'Phone number',
    example: '+44 20 7946 0000',
  })
  phone: string | null;
}

export class CurrencyDto {
  @OneOf(CURRENCY_CODES, { example: 'gbp' })
  code: string;

  @IntegerEnum([1, 100], {
    description:
      'Minor units in one major unit: 100 for most currencies, 1 for jpy',
    example: 100,
  })
  base_multiplier: number;
}

export class DateObjectDto {
  @Text(10, {
    format: 'date',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description: 'Local date',
    example: '2026-06-20',
  })
  date: string;

  @Text(24, {
    pattern:
      '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([1-9]|[12][0-9]|3[01]) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} ([1-9]|1[0-2]):[0-5][0-9] (AM|PM)$',
    description: 'Local date and time in English, 12-hour clock',
    example: 'Sat 20 Jun 2026 7:30 PM',
  })
  formatted: string;

  @Text(25, {
    format: 'date-time',
    pattern:
      '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$',
    description: 'ISO 8601 local date-time with its UTC offset',
    example: '2026-06-20T19:30:00+01:00',
  })
  iso: string;

  @Text(5, {
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description: 'Local time, 24-hour',
    example: '19:30',
  })
  time: string;

  @Text(6, {
    pattern: '^[+-][0-9]{2}:[0-9]{2}$',
    description: "UTC offset at that instant in the event's time zone",
    example: '+01:00',
  })
  timezone: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds', example: 1781980200 })
  unix: number;
}

export class EventSummaryDto {
  @Id('ev_')
  id: string;

  @Text(300, { example: 'Summer Jazz Night' })
  name: string;

  @Nested(DateObjectDto)
  start_date: DateObjectDto;

  @Nested(DateObjectDto)
  end_date: DateObjectDto;
}

export class IssuedTicketDto {
  @Literal('issued_ticket')
  object: string;

  @Id('it_')
  id: string;

  @Text(64, { example: 'K7P2M9QX4T' })
  barcode: string;

  @Text(HTTPS_URL.maxLength, { ...HTTPS_URL, description: 'Barcode image' })
  barcode_url: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds' })
  created_at: number;

  @ArrayOf(CustomQuestionDto, MAX_CUSTOM_QUESTIONS)
  custom_questions: CustomQuestionDto[];

  @Text(500, { example: 'General Admission' })
  description: string;

  @Text(EMAIL.maxLength, {
    pattern: EMAIL.pattern,
    description: "The order's e-mail address",
  })
  email: string;

  @Id('ev_')
  event_id: string;

  @NullableText(400, { description: 'Attendee full name' })
  full_name: string | null;

  @NullableText(200, { description: 'Attendee first name' })
  first_name: string | null;

  @NullableText(200, { description: 'Attendee last name' })
  last_name: string | null;

  @NullableText(100, {
    description: 'Seat from a seating chart; null without one',
    example: 'Row C, Seat 12',
  })
  reservation: string | null;

  @OneOf(ISSUED_TICKET_STATUSES)
  status: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds' })
  updated_at: number;

  @NullableInteger(UNIX_SECONDS, {
    description: 'Unix seconds; set exactly when status is void',
  })
  voided_at: number | null;

  @Id('or_')
  order_id: string;

  @Text(HTTPS_URL.maxLength, { ...HTTPS_URL, description: 'QR code image' })
  qr_code_url: string;

  @NullableId('tt_', {
    description:
      'The ticket type it was issued for (null for tickets recorded without one)',
  })
  ticket_type_id: string | null;

  @Id('es_', { description: "Its event's series" })
  event_series_id: string;

  @OneOf(['true', 'false'], {
    description: 'Whether its check-ins sum to 1 (it is in): "true" or "false"',
  })
  checked_in: string;
}

export class LineItemDto {
  @Literal('line_item')
  object: string;

  @Id('li_')
  id: string;

  @Integer(INT32, { description: 'Booking fee, minor units' })
  booking_fee: number;

  @Text(500, { example: 'General Admission' })
  description: string;

  @OneOf(LINE_ITEM_TYPES)
  type: string;

  @Integer(INT32, { description: 'Total including tax, minor units' })
  total: number;

  @Integer(INT32, { description: 'Amount without tax, minor units' })
  value: number;

  @Integer(INT32, { description: 'Quantity' })
  quantity: number;
}

export class PaymentMethodDto {
  @NullableText(255, {
    description: 'Identifier of an externally held payment method',
    example: 'ch_3PabcXYZ',
  })
  external_id: string | null;

  @NullableId('pm_', {
    description: 'Identifier of an internal payment method',
  })
  id: string | null;

  @OneOf(PAYMENT_METHOD_TYPES)
  type: string;

  @NullableText(200, { description: 'Name of the payment method' })
  name: string | null;

  @NullableText(2000, { description: 'How to pay (offline payments)' })
  instructions: string | null;
}

export class OrderDto {
  @Literal('order')
  object: string;

  @Id('or_')
  id: string;

  @Nested(BuyerDetailsDto)
  buyer_details: BuyerDetailsDto;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds' })
  created_at: number;

  @Nested(CurrencyDto)
  currency: CurrencyDto;

  @Nested(EventSummaryDto)
  event_summary: EventSummaryDto;

  @ArrayOf(IssuedTicketDto, MAX_ISSUED_TICKETS, {
    description: 'The tickets, by id; [] when none (never null)',
  })
  issued_tickets: IssuedTicketDto[];

  @ArrayOf(LineItemDto, MAX_LINE_ITEMS, { description: 'The basket, by id' })
  line_items: LineItemDto[];

  @Nested(PaymentMethodDto)
  payment_method: PaymentMethodDto;

  @Integer(INT32, { description: 'Refunded amount, minor units' })
  refund_amount: number;

  @OneOf(ORDER_STATUSES)
  status: string;

  @NullableText(500, { description: 'Message associated with the status' })
  status_message: string | null;

  @Integer(INT32, { description: 'Sum without tax, minor units' })
  subtotal: number;

  @Integer(INT32, { description: 'Tax, minor units' })
  tax: number;

  @Integer(INT32, { description: 'subtotal + tax, minor units' })
  total: number;

  @NullableText(255, { description: 'Payment transaction id' })
  txn_id: string | null;

  @Integer(UNIX_SECONDS, {
    description:
      'Unix seconds: when anything in the order last changed, its tickets included (docs/API.md, "Incremental sync")',
  })
  updated_at: number;
}

export class OrderListDto extends PageDto(OrderDto, {
  path: '/v1/orders',
  prefix: 'or_',
  keyed: true,
}) {}
