import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../common/currencies';
import { PageDto } from '../../common/pagination/page.dto';
import { ISSUED_TICKET_STATUSES } from '../entities/issued-ticket.entity';
import { LINE_ITEM_TYPES } from '../entities/line-item.entity';
import { ORDER_STATUSES, PAYMENT_METHOD_TYPES } from '../entities/order.entity';

// Response schemas for the OpenAPI document. Bodies are built by orders.mapper.ts; these classes
// describe exactly the fields it emits (the e2e suite checks bodies against the same shape).

const nullableString = (description: string, example?: string) =>
  ApiProperty({ type: String, nullable: true, description, example });
const integer = (description: string, example?: number) =>
  ApiProperty({ type: 'integer', description, example });

export class CustomQuestionDto {
  @ApiProperty({ example: 'Dietary requirements' })
  question: string;

  @nullableString('The answer; null when not answered', 'Vegetarian')
  answer: string | null;
}

export class AddressDto {
  @ApiProperty({ example: '12 High Street' })
  address_1: string;

  @nullableString('Second line')
  address_2: string | null;

  @nullableString('Third line')
  address_3: string | null;

  @nullableString('Postal or zip code', 'SW1A 1AA')
  postal_code: string | null;
}

export class BuyerDetailsDto {
  @ApiProperty({ type: AddressDto })
  address: AddressDto;

  @ApiProperty({ type: [CustomQuestionDto] })
  custom_questions: CustomQuestionDto[];

  @ApiProperty({ example: 'jane.doe@example.com' })
  email: string;

  @ApiProperty({ example: 'Jane Doe' })
  name: string;

  @nullableString('Phone number', '+44 20 7946 0000')
  phone: string | null;
}

export class CurrencyDto {
  @ApiProperty({ enum: CURRENCY_CODES, example: 'gbp' })
  code: string;

  @integer(
    'Minor units in one major unit: 100 for most currencies, 1 for jpy',
    100,
  )
  base_multiplier: number;
}

export class DateObjectDto {
  @ApiProperty({ example: '2026-06-20' })
  date: string;

  @ApiProperty({ example: 'Sat 20 Jun 2026 7:30 PM' })
  formatted: string;

  @ApiProperty({ example: '2026-06-20T19:30:00+01:00' })
  iso: string;

  @ApiProperty({ example: '19:30' })
  time: string;

  @ApiProperty({
    description: "UTC offset at that instant in the event's time zone",
    example: '+01:00',
  })
  timezone: string;

  @integer('Unix seconds', 1781980200)
  unix: number;
}

export class EventSummaryDto {
  @ApiProperty({ example: 'ev_1' })
  id: string;

  @ApiProperty({ example: 'Summer Jazz Night' })
  name: string;

  @ApiProperty({ type: DateObjectDto })
  start_date: DateObjectDto;

  @ApiProperty({ type: DateObjectDto })
  end_date: DateObjectDto;
}

export class IssuedTicketDto {
  @ApiProperty({ example: 'issued_ticket' })
  object: string;

  @ApiProperty({ example: 'it_1' })
  id: string;

  @ApiProperty({ example: 'K7P2M9QX4T' })
  barcode: string;

  @ApiProperty()
  barcode_url: string;

  @integer('Unix seconds')
  created_at: number;

  @ApiProperty({ type: [CustomQuestionDto] })
  custom_questions: CustomQuestionDto[];

  @ApiProperty({ example: 'General Admission' })
  description: string;

  @ApiProperty({ description: "The order's e-mail address" })
  email: string;

  @ApiProperty({ example: 'ev_1' })
  event_id: string;

  @nullableString('Attendee full name')
  full_name: string | null;

  @nullableString('Attendee first name')
  first_name: string | null;

  @nullableString('Attendee last name')
  last_name: string | null;

  @nullableString(
    'Seat from a seating chart; null without one',
    'Row C, Seat 12',
  )
  reservation: string | null;

  @ApiProperty({ enum: ISSUED_TICKET_STATUSES })
  status: string;

  @integer('Unix seconds')
  updated_at: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds; set exactly when status is void',
  })
  voided_at: number | null;

  @ApiProperty({ example: 'or_1' })
  order_id: string;

  @ApiProperty()
  qr_code_url: string;
}

export class LineItemDto {
  @ApiProperty({ example: 'line_item' })
  object: string;

  @ApiProperty({ example: 'li_1' })
  id: string;

  @integer('Booking fee, minor units')
  booking_fee: number;

  @ApiProperty({ example: 'General Admission' })
  description: string;

  @ApiProperty({ enum: LINE_ITEM_TYPES })
  type: string;

  @integer('Total including tax, minor units')
  total: number;

  @integer('Amount without tax, minor units')
  value: number;

  @integer('Quantity')
  quantity: number;
}

export class PaymentMethodDto {
  @nullableString(
    'Identifier of an externally held payment method',
    'ch_3PabcXYZ',
  )
  external_id: string | null;

  @nullableString('Identifier of an internal payment method', 'pm_2')
  id: string | null;

  @ApiProperty({ enum: PAYMENT_METHOD_TYPES })
  type: string;

  @nullableString('Name of the payment method')
  name: string | null;

  @nullableString('How to pay (offline payments)')
  instructions: string | null;
}

export class OrderDto {
  @ApiProperty({ example: 'order' })
  object: string;

  @ApiProperty({ example: 'or_1' })
  id: string;

  @ApiProperty({ type: BuyerDetailsDto })
  buyer_details: BuyerDetailsDto;

  @integer('Unix seconds')
  created_at: number;

  @ApiProperty({ type: CurrencyDto })
  currency: CurrencyDto;

  @ApiProperty({ type: EventSummaryDto })
  event_summary: EventSummaryDto;

  @ApiProperty({ type: [IssuedTicketDto], nullable: true })
  issued_tickets: IssuedTicketDto[] | null;

  @ApiProperty({ type: [LineItemDto] })
  line_items: LineItemDto[];

  @ApiProperty({ type: PaymentMethodDto })
  payment_method: PaymentMethodDto;

  @integer('Refunded amount, minor units')
  refund_amount: number;

  @ApiProperty({ enum: ORDER_STATUSES })
  status: string;

  @nullableString('Message associated with the status')
  status_message: string | null;

  @integer('Sum without tax, minor units')
  subtotal: number;

  @integer('Tax, minor units')
  tax: number;

  @integer('subtotal + tax, minor units')
  total: number;

  @nullableString('Payment transaction id')
  txn_id: string | null;
}

export class OrderListDto extends PageDto(OrderDto) {}
