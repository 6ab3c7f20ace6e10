import {
  ArrayOf,
  COUNT,
  Id,
  Integer,
  Literal,
} from '../../common/openapi/api-properties';
import { MAX_TICKET_TYPES } from '../../common/dto/ticket-type.dto';
import { RESOURCE } from '../../common/resources/resource-identities';

/** One ticket type's figures in an event's attendance. */
export class TicketTypeAttendanceDto {
  @Id(RESOURCE.ticketType.prefix)
  ticket_type_id: string;

  @Integer(COUNT, {
    description:
      'Its valid tickets: /v1/issued_tickets?ticket_type_id=…&status=valid',
  })
  tickets_valid: number;

  @Integer(COUNT, {
    description:
      'Its valid tickets inside now (check-ins summing to 1): …&status=valid&checked_in=true',
  })
  checked_in: number;

  @Integer(COUNT, {
    description: 'Its valid tickets with at least one check-in, ever',
  })
  entered: number;
}

/** `GET /v1/events/{event_id}/attendance` (docs/API.md, "GET /v1/events/{event_id}/attendance"). */
export class EventAttendanceDto {
  @Literal('attendance')
  object: string;

  @Id(RESOURCE.event.prefix)
  event_id: string;

  @Integer(COUNT, {
    description:
      'The event’s valid tickets: /v1/issued_tickets?event_id=…&status=valid',
  })
  tickets_valid: number;

  @Integer(COUNT, {
    description:
      'The event’s void tickets: /v1/issued_tickets?event_id=…&status=void',
  })
  tickets_void: number;

  @Integer(COUNT, {
    description:
      'Valid tickets inside now, whose check-ins sum to 1: …&status=valid&checked_in=true',
  })
  checked_in: number;

  @Integer(COUNT, {
    description:
      'Valid tickets with at least one check-in ever (/v1/check_ins?event_id=…), inside or gone out',
  })
  entered: number;

  @ArrayOf(TicketTypeAttendanceDto, MAX_TICKET_TYPES, {
    description:
      'Every ticket type of the event, those without tickets too, in the event’s order of them',
  })
  ticket_types: TicketTypeAttendanceDto[];
}
