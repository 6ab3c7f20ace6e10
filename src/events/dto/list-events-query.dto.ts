import { IntersectionType } from '@nestjs/swagger';
import { IdParam, TextParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  OneOrCommaListOf,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { EVENT_STATUSES } from '../entities/event.entity';

/** `GET /v1/events` query (docs/API.md, "List events"). */
export class ListEventsQueryDto extends IntersectionType(
  CursorQueryDto('event', 'ev_'),
  RangeQueryDto('start_at', 'events'),
  RangeQueryDto('end_at', 'events'),
) {
  @OneOrCommaListOf('status', EVENT_STATUSES)
  status?: string;

  @IdParam('event_series_id', 'es_', 'Events of this series')
  event_series_id?: string;

  @TextParam('name', 200, 'Events whose name contains this text, ignoring case')
  name?: string;

  @TextParam(
    'venue',
    200,
    'Events whose venue name contains this text, ignoring case',
  )
  venue?: string;
}
