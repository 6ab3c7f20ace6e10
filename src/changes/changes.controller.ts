import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiGoneResponse } from '@nestjs/swagger';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  type PageHeader,
  requiredHeaders,
} from '../common/openapi/api-operations';
import { ErrorBodyDto } from '../common/errors/error-body.dto';
import { Page } from '../common/pagination/page';
import {
  CHANGE_HEAD_HEADER,
  ChangeHead,
  ChangeHeadInterceptor,
} from './change-head';
import { CHANGE_POSITION_PATTERN, changeId } from './change-feed';
import { ChangesService } from './changes.service';
import { RESOURCE } from '../common/resources/resource-identities';
import { ChangeListDto } from './dto/change.dto';
import { ListChangesQueryDto } from './dto/list-changes-query.dto';

/** X-Change-Head, on every answer of the feed to a key (ChangeHeadInterceptor). */
const HEAD: PageHeader = {
  description: `The newest entry a reader can see now (\`${changeId(0)}\` when none): note it, walk the lists in full, then follow the feed from it.`,
  schema: {
    type: 'string',
    pattern: CHANGE_POSITION_PATTERN,
    maxLength: 24,
  },
};

@ApiResource(RESOURCE.change.tag)
@Controller({ path: RESOURCE.change.segment, version: '1' })
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get()
  @ApiList({
    operationId: 'listChanges',
    summary: "Follow the box office's change feed",
    description:
      'What a webhook would tell, deletions included: one entry per change of a resource, oldest first, numbered in commit order. links.next always points past the last entry returned (the same position on an empty page; without starting_after, the head): keep following it. X-Change-Head names the newest entry. No snapshot of the resource: read resource_url (404 there: deleted).',
    type: ChangeListDto,
    noun: RESOURCE.change.noun,
    pageHeaders: { [CHANGE_HEAD_HEADER]: HEAD },
    errorHeaders: { [CHANGE_HEAD_HEADER]: HEAD },
  })
  @ApiGoneResponse({
    type: ErrorBodyDto,
    description:
      'CURSOR_EXPIRED: starting_after is older than the feed keeps (CHANGES_RETENTION_DAYS): read the lists again, then follow the feed from X-Change-Head.',
    headers: requiredHeaders({ [CHANGE_HEAD_HEADER]: HEAD }),
  })
  @UseInterceptors(ChangeHeadInterceptor)
  list(
    @CurrentCaller() caller: Caller,
    @ChangeHead() head: number,
    @Query() query: ListChangesQueryDto,
  ): Promise<Page> {
    return this.changes.list(caller.boxOfficeId, head, query);
  }
}
