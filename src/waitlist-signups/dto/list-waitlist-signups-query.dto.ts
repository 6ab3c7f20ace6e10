import { CursorQueryDto } from '../../common/pagination/list-query.dto';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/event_series/{event_series_id}/waitlist_signups` query. */
export class ListWaitlistSignupsQueryDto extends CursorQueryDto(
  RESOURCE.waitlistSignup.noun,
  RESOURCE.waitlistSignup.prefix,
) {}
