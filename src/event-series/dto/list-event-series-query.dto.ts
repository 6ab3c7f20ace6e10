import { IntersectionType } from '@nestjs/swagger';
import { TextParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  OneOrCommaListOf,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { EVENT_STATUSES } from '../../common/statuses';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/event_series` query (docs/API.md, "Event series"). */
export class ListEventSeriesQueryDto extends IntersectionType(
  CursorQueryDto(RESOURCE.eventSeries.noun, RESOURCE.eventSeries.prefix),
  RangeQueryDto('created_at', 'series'),
) {
  @OneOrCommaListOf('status', EVENT_STATUSES)
  status?: string;

  @TextParam(
    'name',
    200,
    'Series whose name contains this text in the search fold: case, accents and letter forms ignored (istanbul finds İstanbul, strasse finds Straße)',
  )
  name?: string;

  @TextParam(
    'venue',
    200,
    'Series whose venue name contains this text in the search fold, as for name',
  )
  venue?: string;
}
