import { IntersectionType, OmitType } from '@nestjs/swagger';
import { IdParam, TextParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  OneOrCommaListOf,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { EVENT_STATUSES } from '../../common/statuses';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/events` query (docs/API.md, "List events"). */
export class ListEventsQueryDto extends IntersectionType(
  CursorQueryDto(RESOURCE.event.noun, RESOURCE.event.prefix),
  RangeQueryDto('start_at', 'events'),
  RangeQueryDto('end_at', 'events'),
) {
  @OneOrCommaListOf('status', EVENT_STATUSES)
  status?: string;

  @IdParam(
    'event_series_id',
    RESOURCE.eventSeries.prefix,
    'Events of this series',
  )
  event_series_id?: string;

  @TextParam(
    'name',
    200,
    'Events whose name contains this text in the search fold: case, accents and letter forms ignored (istanbul finds İstanbul, strasse finds Straße)',
  )
  name?: string;

  @TextParam(
    'venue',
    200,
    'Events whose venue name contains this text in the search fold, as for name',
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
