import { CURRENCY_CODES } from '../../common/currencies';
import {
  ArrayOf,
  EMAIL,
  INT32,
  Id,
  Integer,
  IntegerEnum,
  Literal,
  Nested,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
} from '../../common/openapi/api-properties';
import {
  CustomQuestionDto,
  MAX_CUSTOM_QUESTIONS,
} from '../../common/dto/custom-question.dto';
import { DateObjectDto } from '../../common/dto/date-object.dto';
import { IssuedTicketDto } from '../../common/dto/issued-ticket.dto';
import { PaymentMethodDto } from '../../common/dto/payment-method.dto';
import { VenueDto } from '../../common/dto/venue.dto';
import { PageDto } from '../../common/pagination/page.dto';
import { LINE_ITEM_TYPES } from '../entities/line-item.entity';
import { ORDER_STATUSES } from '../entities/order.entity';
import {
  RESOURCE,
  exampleId,
  pathOf,
} from '../../common/resources/resource-identities';

// Response schemas for the OpenAPI document: exactly the fields orders/order.fields.ts emits, with
// the database's column lengths and the bounds of docs/API.md (Limits: "Response fields").

export const MAX_LINE_ITEMS = 100;
export const MAX_ISSUED_TICKETS = 1000;

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

  @NullableText(200, { description: 'First name', example: 'Jane' })
  first_name: string | null;

  @NullableText(200, { description: 'Last name', example: 'Doe' })
  last_name: string | null;

  @Text(300, {
    description:
      'Full name: the first and last names joined, when both are set',
    example: 'Jane Doe',
  })
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

export class EventSummaryDto {
  @Id(RESOURCE.event.prefix)
  id: string;

  @Id(RESOURCE.eventSeries.prefix, { description: 'The event’s series' })
  event_series_id: string;

  @Text(300, { example: 'Summer Jazz Night' })
  name: string;

  @Nested(DateObjectDto)
  start_date: DateObjectDto;

  @Nested(DateObjectDto)
  end_date: DateObjectDto;

  @Nested(VenueDto, { description: 'The event’s venue' })
  venue: VenueDto;
}

/** The prefixes of what a line item sold or spent (LINE_ITEM_SUBJECT in order.fields.ts). */
const [tt, pr, vc, di] = [
  RESOURCE.ticketType,
  RESOURCE.product,
  RESOURCE.voucherCode,
  RESOURCE.discount,
].map((resource) => resource.prefix);

export class LineItemDto {
  @Literal(RESOURCE.lineItem.object)
  object: string;

  @Id(RESOURCE.lineItem.prefix)
  id: string;

  @Integer(INT32, { description: 'Booking fee, minor units' })
  booking_fee: number;

  @Text(500, { example: 'General Admission' })
  description: string;

  @NullableText(13, {
    pattern: `^(${[tt, pr, vc, di].map((p) => p.slice(0, -1)).join('|')})_[1-9][0-9]*$`,
    description: `What it sold or spent: the ticket type (${tt}) of a ticket or void line, the product (${pr}) of a product line, the voucher code (${vc}) or discount (${di}) of a gift_card line; null for the other types, and where the data cannot say`,
    example: exampleId(RESOURCE.ticketType),
  })
  item_id: string | null;

  @OneOf(LINE_ITEM_TYPES)
  type: string;

  @Integer(INT32, { description: 'Total including tax, minor units' })
  total: number;

  @Integer(INT32, { description: 'Amount without tax, minor units' })
  value: number;

  @Integer(INT32, { description: 'Quantity' })
  quantity: number;
}

export class OrderDto {
  @Literal(RESOURCE.order.object)
  object: string;

  @Id(RESOURCE.order.prefix)
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
  path: pathOf(RESOURCE.order),
  prefix: RESOURCE.order.prefix,
  keyed: true,
}) {}
