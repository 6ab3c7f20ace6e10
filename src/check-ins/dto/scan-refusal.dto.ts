import { IssuedTicketDto } from '../../common/dto/issued-ticket.dto';
import { ErrorBodyDto } from '../../common/errors/error-body.dto';
import {
  Nested,
  NullableNested,
  OneOf,
} from '../../common/openapi/api-properties';
import { SCAN_REFUSALS } from '../scan-decision';
import { CheckInDto } from './check-in.dto';

/**
 * A 409 of a scan the ticket's state refuses (docs/API.md, "POST /v1/check_ins"): the error body,
 * the check-in that decides it, so that a door app can say when the ticket was scanned, and the
 * ticket, so that it can say whose it is.
 */
export class ScanRefusalDto extends ErrorBodyDto {
  @OneOf(SCAN_REFUSALS, { example: 'ALREADY_CHECKED_IN' })
  declare error_code: (typeof SCAN_REFUSALS)[number];

  @NullableNested(CheckInDto, {
    description:
      'The check-in that decides it: the one that already let the ticket in (ALREADY_CHECKED_IN), its last check-out (NOT_CHECKED_IN), or its last scan (TICKET_VOID); null when it has none, and for WRONG_EVENT',
  })
  check_in: CheckInDto | null;

  @Nested(IssuedTicketDto, {
    description:
      'The ticket scanned, as GET /v1/issued_tickets/{id} serves it (for WRONG_EVENT, its own event_id)',
  })
  issued_ticket: IssuedTicketDto;
}
