import { IntersectionType, OmitType } from '@nestjs/swagger';
import { TextParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  OneOrCommaListOf,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { ListEventsQueryDto } from '../../events/dto/list-events-query.dto';
import { EVENT_STATUSES } from '../../events/entities/event.entity';

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

/**
 * `GET /v1/event_series/{id}/events` query: the events list's, without `event_series_id` (the
 * path names the series), with Ticket Tailor's `override_id`.
 */
export class ListSeriesEventsQueryDto extends OmitType(ListEventsQueryDto, [
  'event_series_id',
] as const) {
  @TextParam(
    'override_id',
    100,
    'Dates with this per-date override. This service models no overrides (every date’s is null), so any value gives an empty page.',
  )
  override_id?: string;
}
