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
import { RevalidatedByDataVersion } from '../sync/revalidation';
import { SYNC_PAGE_HEADERS } from '../sync/sync-mode';
import { CheckInsService } from './check-ins.service';
import { CheckInDto, CheckInListDto } from './dto/check-in.dto';
import { ListCheckInsQueryDto } from './dto/list-check-ins-query.dto';

@ApiResource('check-ins')
@Controller({ path: 'check_ins', version: '1' })
export class CheckInsController {
  constructor(private readonly checkIns: CheckInsService) {}

  @RevalidatedByDataVersion({ watermark: true })
  @Get()
  @ApiList({
    operationId: 'listCheckIns',
    summary: "List the box office's check-ins",
    description:
      'Door scans, newest first (created_at, then id, descending), or oldest first with sort=created_at for incremental sync (rows past X-Sync-Watermark held back). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
    type: CheckInListDto,
    noun: 'check-in',
    pageHeaders: SYNC_PAGE_HEADERS,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListCheckInsQueryDto,
  ): Promise<Page> {
    return this.checkIns.list(caller.boxOfficeId, query);
  }

  @RevalidatedByDataVersion()
  @Get(':check_in_id')
  @ApiRetrieve({
    operationId: 'retrieveCheckIn',
    summary: 'Retrieve one check-in',
    description:
      'The same object as in the list; another box office’s check-in is not found.',
    type: CheckInDto,
    noun: 'check-in',
    param: 'check_in_id',
    prefix: 'ci_',
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('check_in_id') checkInId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.checkIns.retrieve(caller.boxOfficeId, checkInId);
  }
}
