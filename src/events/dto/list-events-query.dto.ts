import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IdParam } from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  OneOrCommaListOf,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { NotRepeated } from '../../common/validation/strict-query';
import { EVENT_STATUSES } from '../entities/event.entity';

/** `GET /v1/events` query (docs/API.md, "List events"). */
export class ListEventsQueryDto extends IntersectionType(
  CursorQueryDto('event', 'ev_'),
  RangeQueryDto('start_at', 'events'),
  RangeQueryDto('end_at', 'events'),
) {
  @ApiPropertyOptional({
    type: String,
    description: `One of ${EVENT_STATUSES.join(', ')}, or a comma list of them`,
    example: 'published,sales_closed',
  })
  @IsOptional()
  @NotRepeated()
  @OneOrCommaListOf('status', EVENT_STATUSES)
  status?: string;

  @IdParam('event_series_id', 'es_', 'Events of this series')
  event_series_id?: string;
}
