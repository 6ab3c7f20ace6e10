import {
  ArrayOf,
  EMAIL,
  FLAG,
  HTTPS_URL,
  Id,
  Integer,
  Literal,
  NullableId,
  NullableInteger,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
} from '../openapi/api-properties';
import { CustomQuestionDto, MAX_CUSTOM_QUESTIONS } from './custom-question.dto';
import { ISSUED_TICKET_STATUSES } from '../statuses';
import { RESOURCE } from '../resources/resource-identities';

// An issued ticket, as the issued tickets list serves it and an order carries it (issued_tickets):
// the response schema, exactly the fields src/issued-tickets/issued-ticket.fields.ts emits.

export class IssuedTicketDto {
  @Literal(RESOURCE.issuedTicket.object)
  object: string;

  @Id(RESOURCE.issuedTicket.prefix)
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

  @NullableText(EMAIL.maxLength, {
    pattern: EMAIL.pattern,
    description:
      "The order's e-mail address; for a ticket issued without an order, the one it was issued with (null without one)",
  })
  email: string | null;

  @Id(RESOURCE.event.prefix)
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

  @NullableId(RESOURCE.order.prefix, {
    description:
      'Its order; null for a ticket issued on its own (POST /v1/issued_tickets), which belongs to no order',
  })
  order_id: string | null;

  @Text(HTTPS_URL.maxLength, { ...HTTPS_URL, description: 'QR code image' })
  qr_code_url: string;

  @NullableId(RESOURCE.ticketType.prefix, {
    description:
      'The ticket type it was issued for (null for tickets recorded without one)',
  })
  ticket_type_id: string | null;

  @Id(RESOURCE.eventSeries.prefix, { description: "Its event's series" })
  event_series_id: string;

  @OneOf(FLAG, {
    description: 'Whether its check-ins sum to 1 (it is in): "true" or "false"',
  })
  checked_in: string;
}
