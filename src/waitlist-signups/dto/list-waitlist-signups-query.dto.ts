import { CursorQueryDto } from '../../common/pagination/list-query.dto';

/** `GET /v1/event_series/{event_series_id}/waitlist_signups` query. */
export class ListWaitlistSignupsQueryDto extends CursorQueryDto(
  'waitlist signup',
  'ws_',
) {}
