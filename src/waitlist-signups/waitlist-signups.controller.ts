import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
} from '../common/openapi/api-operations';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import {
  WaitlistSignupDto,
  WaitlistSignupListDto,
} from './dto/waitlist-signup.dto';
import { ListWaitlistSignupsQueryDto } from './dto/list-waitlist-signups-query.dto';
import { WaitlistSignupsService } from './waitlist-signups.service';
import { RESOURCE } from '../common/resources/resource-identities';

const SERIES = {
  param: 'event_series_id',
  prefix: RESOURCE.eventSeries.prefix,
  noun: RESOURCE.eventSeries.noun,
};

/**
 * A series' waitlist, under its path (docs/API.md, "Waitlist signups"): signups, so this feature
 * serves them, listed under the series in the document, nested as its events are.
 */
@ApiResource(RESOURCE.eventSeries.tag)
@Controller({
  path: `${RESOURCE.eventSeries.segment}/:event_series_id/waitlist_signups`,
  version: '1',
})
export class WaitlistSignupsController {
  constructor(private readonly signups: WaitlistSignupsService) {}

  @RevalidatedByDataVersion({ catalogue: true })
  @Get()
  @ApiList({
    operationId: 'listEventSeriesWaitlistSignups',
    summary: "List a series' waitlist signups",
    description:
      'Newest first (created_at, then id, descending). An unknown series is not found; a cursor naming a signup of another series is an INVALID_CURSOR.',
    type: WaitlistSignupListDto,
    noun: RESOURCE.waitlistSignup.noun,
    parent: SERIES,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Query() query: ListWaitlistSignupsQueryDto,
  ): Promise<Page> {
    return this.signups.list(caller.boxOfficeId, seriesId, query);
  }

  @RevalidatedByDataVersion({ catalogue: true })
  @Get(':signup_id')
  @ApiRetrieve({
    operationId: 'retrieveEventSeriesWaitlistSignup',
    summary: 'Retrieve one waitlist signup of a series',
    description:
      'The same object as in the list; not found unless the signup belongs to the series.',
    type: WaitlistSignupDto,
    noun: RESOURCE.waitlistSignup.noun,
    param: 'signup_id',
    prefix: RESOURCE.waitlistSignup.prefix,
    parent: SERIES,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('event_series_id') seriesId: string,
    @Param('signup_id') signupId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.signups.retrieve(caller.boxOfficeId, seriesId, signupId);
  }
}
