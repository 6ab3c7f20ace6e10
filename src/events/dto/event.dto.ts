import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../common/currencies';
import { PageDto } from '../../common/pagination/page.dto';
import { DateObjectDto, PaymentMethodDto } from '../../orders/dto/order.dto';
import { EVENT_STATUSES } from '../entities/event.entity';
import {
  TICKET_TYPE_KINDS,
  TICKET_TYPE_STATUSES,
} from '../entities/ticket-type.entity';

// Response schemas for the OpenAPI document: exactly the fields events/event.fields.ts emits.

const FLAG = { type: String, enum: ['true', 'false'] } as const;
const integer = (description: string, example?: number) =>
  ApiProperty({ type: 'integer', description, example });
const nullableString = (description: string, example?: string) =>
  ApiProperty({ type: String, nullable: true, description, example });

export class TicketTypeDto {
  @ApiProperty({ enum: ['ticket_type'] })
  object: string;

  @ApiProperty({ example: 'tt_1' })
  id: string;

  @nullableString('The code that reveals a hidden ticket type')
  access_code: string | null;

  @integer('Booking fee per ticket, minor units')
  booking_fee: number;

  @nullableString('Description')
  description: string | null;

  @nullableString('The group it is shown in', 'tg_1')
  group_id: string | null;

  @integer('Most tickets of this type in one order', 10)
  max_per_order: number;

  @integer('Fewest tickets of this type in one order', 1)
  min_per_order: number;

  @ApiProperty({ example: 'General Admission' })
  name: string;

  @integer('Price, minor units (0 when free)', 2500)
  price: number;

  @ApiProperty({
    enum: TICKET_TYPE_STATUSES,
    description: 'sold_out exactly when quantity is 0',
  })
  status: string;

  @integer('Sort index in the UI')
  sort_order: number;

  @ApiProperty({ enum: TICKET_TYPE_KINDS })
  type: string;

  @integer('Still available for purchase', 120)
  quantity: number;
}

export class TicketGroupDto {
  @ApiProperty({ example: 'tg_1' })
  id: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Most tickets of the group in one order; null for no limit',
  })
  max_per_order: number | null;

  @ApiProperty({ example: 'Seating' })
  name: string;

  @integer('Sort index in the UI')
  sort_order: number;

  @ApiProperty({ type: [String], example: ['tt_1', 'tt_2'] })
  ticket_ids: string[];
}

export class ImagesDto {
  @ApiProperty({ example: 'https://cdn.boxoffice.example/events/1/header.jpg' })
  header: string;

  @ApiProperty({
    example: 'https://cdn.boxoffice.example/events/1/thumbnail.jpg',
  })
  thumbnail: string;
}

export class VenueDto {
  @nullableString('Venue name', 'Royal Albert Hall')
  name: string | null;

  @nullableString('Venue postal code', 'SW7 2AP')
  postal_code: string | null;
}

export class EventDto {
  @ApiProperty({ enum: ['event'] })
  object: string;

  @ApiProperty({ example: 'ev_1' })
  id: string;

  @nullableString('The code that opens a protected event')
  access_code: string | null;

  @ApiProperty({ example: 'Buy tickets' })
  call_to_action: string;

  @integer('Unix seconds')
  created_at: number;

  @ApiProperty({ enum: CURRENCY_CODES, example: 'gbp' })
  currency: string;

  @nullableString('Description')
  description: string | null;

  @ApiProperty({ type: DateObjectDto })
  end: DateObjectDto;

  @ApiProperty({ example: 'es_1' })
  event_series_id: string;

  @ApiProperty({ type: ImagesDto })
  images: ImagesDto;

  @ApiProperty({ example: 'Summer Jazz Night' })
  name: string;

  @ApiProperty(FLAG)
  online_event: string;

  @ApiProperty({ type: [PaymentMethodDto] })
  payment_methods: PaymentMethodDto[];

  @ApiProperty(FLAG)
  private: string;

  @ApiProperty({ type: DateObjectDto })
  start: DateObjectDto;

  @ApiProperty({ enum: EVENT_STATUSES })
  status: string;

  @ApiProperty({ type: [TicketGroupDto] })
  ticket_groups: TicketGroupDto[];

  @ApiProperty({ type: [TicketTypeDto] })
  ticket_types: TicketTypeDto[];

  @ApiProperty({
    ...FLAG,
    description:
      '"true" exactly when a ticket type is on_sale with quantity > 0',
  })
  tickets_available: string;

  @ApiProperty({ example: 'Europe/London', description: 'IANA time zone' })
  timezone: string;

  @integer('Its valid issued tickets')
  total_issued_tickets: number;

  @integer('Its completed orders')
  total_orders: number;

  @ApiProperty({ example: 'https://tickets.boxoffice.example/events/1' })
  url: string;

  @ApiProperty({ type: VenueDto })
  venue: VenueDto;
}

export class EventListDto extends PageDto(EventDto) {}
