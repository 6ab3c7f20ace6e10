import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { NotRepeated } from '../../common/validation/strict-query';
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
} from '../../common/statuses';
import { RESOURCE, idOf } from '../../common/resources/resource-identities';

/** `search`'s bounds, in characters (docs/API.md, "Searching issued tickets"). */
const SEARCH_LENGTH = { min: 2, max: 100 } as const;

/** Text without a NUL character. */
// eslint-disable-next-line no-control-regex -- a NUL is what it looks for
const NO_NUL = /^[^\u0000]*$/;

/** `GET /v1/issued_tickets` query (docs/API.md, "List issued tickets"). */
export class ListIssuedTicketsQueryDto extends IntersectionType(
  CursorQueryDto(RESOURCE.issuedTicket.noun, RESOURCE.issuedTicket.prefix),
  RangeQueryDto('created_at', 'issued tickets'),
  RangeQueryDto('updated_at', 'issued tickets'),
) {
  @IdListParam(
    'event_id',
    RESOURCE.event.prefix,
    'Tickets for this event, or for any of a comma list of up to 100',
  )
  event_id?: string;

  @IdListParam(
    'event_series_id',
    RESOURCE.eventSeries.prefix,
    'Tickets for events of this series, or of any of a comma list of up to 100',
  )
  event_series_id?: string;

  @IdParam(
    'ticket_type_id',
    RESOURCE.ticketType.prefix,
    'Tickets issued for this ticket type',
  )
  ticket_type_id?: string;

  @EnumParam(
    'checked_in',
    ['true', 'false'],
    'Whether the ticket is checked in',
  )
  checked_in?: 'true' | 'false';

  @IdParam('order_id', RESOURCE.order.prefix, 'Tickets of this order')
  order_id?: string;

  @ApiPropertyOptional({
    enum: [...ISSUED_TICKET_STATUSES, 'voided'],
    description: '`voided` is accepted as `void`',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'voided' ? 'void' : value,
  )
  @NotRepeated()
  @IsIn(ISSUED_TICKET_STATUSES, {
    message: `status must be one of ${[...ISSUED_TICKET_STATUSES, 'voided'].join(', ')}`,
  })
  status?: IssuedTicketStatus;

  @TextParam('barcode', 64, 'The ticket with this barcode')
  barcode?: string;

  @EmailParam("The order's buyer e-mail, exact but case-insensitive")
  email?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: SEARCH_LENGTH.min,
    maxLength: SEARCH_LENGTH.max,
    pattern: NO_NUL.source,
    description: `The door's look-up: tickets whose holder's name or e-mail contains this text, or whose barcode or order id (\`${idOf(RESOURCE.order, 12)}\`: orders 12, 120-129, …) starts with it, in the search fold (case, accents and letter forms ignored; \`%\` and \`_\` are plain characters)`,
  })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: 'search must be a string' })
  @Length(SEARCH_LENGTH.min, SEARCH_LENGTH.max, {
    message: `search must be ${SEARCH_LENGTH.min} to ${SEARCH_LENGTH.max} characters`,
  })
  // SQLite ends a LIKE pattern at a NUL: `a%00b` would search for `a`.
  @Matches(NO_NUL, {
    message: 'search must not contain a NUL character (%00)',
  })
  search?: string;

  @SortParam(ISSUED_TICKET_SOURCE.sorts)
  sort?: string;
}
