import { IntersectionType } from '@nestjs/swagger';
import {
  EmailParam,
  EnumParam,
  IdListParam,
  IdParam,
  TextParam,
} from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { SortParam } from '../../common/pagination/sort';
import { ISSUED_TICKET_SOURCE } from '../issued-ticket.fields';
import {
  ISSUED_TICKET_STATUSES,
  type IssuedTicketStatus,
} from '../../orders/entities/issued-ticket.entity';

/** `GET /v1/issued_tickets` query (docs/API.md, "List issued tickets"). */
export class ListIssuedTicketsQueryDto extends IntersectionType(
  CursorQueryDto('issued ticket', 'it_'),
  RangeQueryDto('created_at', 'issued tickets'),
  RangeQueryDto('updated_at', 'issued tickets'),
) {
  @IdListParam(
    'event_id',
    'ev_',
    'Tickets for this event, or for any of a comma list of up to 50',
  )
  event_id?: string;

  @IdParam('order_id', 'or_', 'Tickets of this order')
  order_id?: string;

  @EnumParam('status', ISSUED_TICKET_STATUSES, 'Ticket status')
  status?: IssuedTicketStatus;

  @TextParam('barcode', 64, 'The ticket with this barcode')
  barcode?: string;

  @EmailParam("The order's buyer e-mail, exact but case-insensitive")
  email?: string;

  @SortParam(ISSUED_TICKET_SOURCE.sorts)
  sort?: string;
}
