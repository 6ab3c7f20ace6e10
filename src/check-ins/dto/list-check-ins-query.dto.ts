import { IntersectionType } from '@nestjs/swagger';
import { IdListParam, EnumParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { SortParam } from '../../common/pagination/sort';
import { CHECK_IN_SOURCE } from '../check-in.fields';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/check_ins` query (docs/API.md, "List check-ins"). */
export class ListCheckInsQueryDto extends IntersectionType(
  CursorQueryDto(RESOURCE.checkIn.noun, RESOURCE.checkIn.prefix),
  RangeQueryDto('check_in_at', 'check-ins'),
  RangeQueryDto('created_at', 'check-ins'),
) {
  @IdListParam(
    'event_id',
    RESOURCE.event.prefix,
    'Check-ins at this event, or at any of a comma list of them',
  )
  event_id?: string;

  @IdListParam(
    'event_series_id',
    RESOURCE.eventSeries.prefix,
    'Check-ins at events of this series, or of any of a comma list of them',
  )
  event_series_id?: string;

  @IdListParam(
    'issued_ticket_id',
    RESOURCE.issuedTicket.prefix,
    'Check-ins of this ticket, or of any of a comma list of them',
  )
  issued_ticket_id?: string;

  @EnumParam('quantity', ['1', '-1'], '1: check-ins; -1: check-outs')
  quantity?: '1' | '-1';

  @SortParam(CHECK_IN_SOURCE.sorts)
  sort?: string;
}
