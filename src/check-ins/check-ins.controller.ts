import {
  Body,
  Controller,
  type Type,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  DECORATORS,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import { RequiresScope } from '../auth/requires-scope.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
  ApiWrite,
} from '../common/openapi/api-operations';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { retryKeysOf, sendWriteAnswer } from '../common/writes/writes';
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import { SYNC_PAGE_HEADERS } from '../sync/sync-mode';
import { CheckInsService } from './check-ins.service';
import {
  CheckInDto,
  CheckInListDto,
  CheckInWithIssuedTicketDto,
} from './dto/check-in.dto';
import { ListCheckInsQueryDto } from './dto/list-check-ins-query.dto';
import {
  RecordCheckInDto,
  RecordCheckInQueryDto,
} from './dto/record-check-in.dto';
import { ScanRefusalDto } from './dto/scan-refusal.dto';
import { RESOURCE, exampleId } from '../common/resources/resource-identities';

/**
 * The 201 of a scan is one of two bodies: the CheckIn, or with `?expand=issued_ticket` the
 * CheckIn and its ticket. ApiWrite describes the first; this, placed above it, keeps the 201
 * ApiWrite made (its headers and description) and makes its body either.
 */
function ApiCreatedExpandable(expanded: Type): MethodDecorator {
  return (target, key, descriptor) => {
    const responses = Reflect.getMetadata(
      DECORATORS.API_RESPONSE,
      descriptor.value as object,
    ) as Record<string, { type?: Type } & Record<string, unknown>>;
    const { type, ...created } = responses['201'];
    if (type === undefined) throw new Error('ApiWrite must come first');
    Reflect.defineMetadata(
      DECORATORS.API_RESPONSE,
      {
        ...responses,
        201: {
          ...created,
          schema: {
            oneOf: [
              { $ref: getSchemaPath(type) },
              { $ref: getSchemaPath(expanded) },
            ],
          },
        },
      },
      descriptor.value as object,
    );
    ApiExtraModels(type, expanded)(target, key, descriptor);
  };
}

@ApiResource(RESOURCE.checkIn.tag)
@Controller({ path: RESOURCE.checkIn.segment, version: '1' })
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
    noun: RESOURCE.checkIn.noun,
    pageHeaders: SYNC_PAGE_HEADERS,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListCheckInsQueryDto,
  ): Promise<Page> {
    return this.checkIns.list(caller.boxOfficeId, query);
  }

  /**
   * A door scan (docs/API.md, "POST /v1/check_ins"): 201 with the CheckIn, or 409 when the
   * ticket's event or state refuses it; with an Idempotency-Key (or a `local_unique_id`), a retry
   * gets the first answer again. The header is read field by field: two are refused.
   */
  @Post()
  @RequiresScope('check_in')
  @ApiCreatedExpandable(CheckInWithIssuedTicketDto)
  @ApiWrite({
    operationId: 'recordCheckIn',
    summary: 'Record a door scan',
    description:
      'A door app scans a ticket, by id or barcode: 1 checks it in, -1 checks it out. With event_id, a ticket of another event is refused (WRONG_EVENT). Then the ticket’s history decides, in the order scans happened: a check-in of a void ticket (unless an offline scan made before voided_at), a check-in while it is in, a check-out while it is out, or an offline scan (check_in_at in the past) that a later scan follows, is refused (409) with the ticket and the check-in that decides it, and nothing is written. Of simultaneous scans of one ticket, on any number of instances, exactly one check-in succeeds. With ?expand=issued_ticket the 201 carries the ticket too. Needs a key of scope check_in. Send an Idempotency-Key (or local_unique_id) to retry safely.',
    type: CheckInDto,
    noun: RESOURCE.checkIn.noun,
    created: RESOURCE.checkIn,
    body: RecordCheckInDto,
    scope: 'check_in',
    notFound:
      'NOT_FOUND: no issued ticket of this box office has this id or barcode',
    refusal: {
      type: ScanRefusalDto,
      description:
        'WRONG_EVENT: the ticket is not for the event_id sent. TICKET_VOID, ALREADY_CHECKED_IN, NOT_CHECKED_IN: the ticket’s state refuses the scan (ScanRefusal, with the `issued_ticket` and the deciding `check_in`).',
    },
  })
  // Swagger UI's "Try it out" sends the body's example: a valid scan, not one made of every
  // field's own sample (both ways of naming the ticket, which is a 400).
  @ApiBody({
    type: RecordCheckInDto,
    examples: {
      scan: {
        summary: 'A check-in, by ticket id',
        value: { issued_ticket_id: exampleId(RESOURCE.issuedTicket) },
      },
      retryKey: {
        summary: 'A check-in with a retry key in the body (Ticket Tailor’s)',
        value: {
          issued_ticket_id: exampleId(RESOURCE.issuedTicket),
          local_unique_id: 'door-3-scan-5813',
        },
      },
      checkOut: {
        summary: 'A check-out',
        value: {
          issued_ticket_id: exampleId(RESOURCE.issuedTicket),
          quantity: -1,
        },
      },
    },
  })
  async recordScan(
    @CurrentCaller() caller: Caller,
    @Body() scan: RecordCheckInDto,
    @Query() query: RecordCheckInQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.checkIns.answerScan(
      caller,
      scan,
      query,
      retryKeysOf(req, scan),
    );
    return sendWriteAnswer(res, answer);
  }

  @RevalidatedByDataVersion()
  @Get(':check_in_id')
  @ApiRetrieve({
    operationId: 'retrieveCheckIn',
    summary: 'Retrieve one check-in',
    description:
      'The same object as in the list; another box office’s check-in is not found.',
    type: CheckInDto,
    noun: RESOURCE.checkIn.noun,
    param: 'check_in_id',
    prefix: RESOURCE.checkIn.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('check_in_id') checkInId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.checkIns.retrieve(caller.boxOfficeId, checkInId);
  }
}
