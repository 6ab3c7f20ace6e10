import { IntersectionType } from '@nestjs/swagger';
import { TextParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  OneOrCommaListOf,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { EVENT_STATUSES } from '../../common/statuses';

/** `GET /v1/event_series` query (docs/API.md, "Event series"). */
export class ListEventSeriesQueryDto extends IntersectionType(
  CursorQueryDto('event series', 'es_'),
  RangeQueryDto('created_at', 'series'),
) {
  @OneOrCommaListOf('status', EVENT_STATUSES)
  status?: string;

  @TextParam('name', 200, 'Series whose name contains this text, ignoring case')
  name?: string;

  @TextParam(
    'venue',
    200,
    'Series whose venue name contains this text, ignoring case',
  )
  venue?: string;
}
