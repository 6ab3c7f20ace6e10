import { IssuedTicketDto } from '../../common/dto/issued-ticket.dto';
import {
  Id,
  Integer,
  IntegerEnum,
  Literal,
  Nested,
  UNIX_SECONDS,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { RESOURCE, pathOf } from '../../common/resources/resource-identities';

export class CheckInDto {
  @Literal(RESOURCE.checkIn.object)
  object: string;

  @Id(RESOURCE.checkIn.prefix)
  id: string;

  @Id(RESOURCE.issuedTicket.prefix, { description: 'The ticket scanned' })
  issued_ticket_id: string;

  @Id(RESOURCE.event.prefix, { description: "The ticket's event" })
  event_id: string;

  @Id(RESOURCE.eventSeries.prefix, {
    description: "The ticket's event's series",
  })
  event_series_id: string;

  @IntegerEnum([1, -1], { description: '1: checked in; -1: checked out' })
  quantity: number;

  @Integer(UNIX_SECONDS, {
    description:
      'Unix seconds: when it was scanned (an offline scan uploaded later is earlier than created_at)',
  })
  check_in_at: number;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds: when it was recorded' })
  created_at: number;
}

/** The 201 of a scan with `?expand=issued_ticket`: the CheckIn and the ticket scanned. */
export class CheckInWithIssuedTicketDto extends CheckInDto {
  @Nested(IssuedTicketDto, {
    description:
      'The ticket scanned, as GET /v1/issued_tickets/{id} serves it after the scan',
  })
  issued_ticket: IssuedTicketDto;
}

export class CheckInListDto extends PageDto(CheckInDto, {
  path: pathOf(RESOURCE.checkIn),
  prefix: RESOURCE.checkIn.prefix,
}) {}
