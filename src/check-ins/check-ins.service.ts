import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/auth.service';
import { parsePrefixedId } from '../common/ids';
import { ApiError } from '../common/errors/api-error';
import { Metrics } from '../common/metrics/metrics';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import {
  type ReplayedAnswer,
  type RetryKeys,
  Writes,
} from '../common/writes/writes';
import { dialectFor } from '../database/sql-dialect';
import { ISSUED_TICKET_SOURCE } from '../issued-tickets/issued-ticket.fields';
import { SyncHorizon } from '../sync/sync-horizon';
import { syncPage } from '../sync/sync-mode';
import { CHECK_IN_SOURCE } from './check-in.fields';
import { ListCheckInsQueryDto } from './dto/list-check-ins-query.dto';
import {
  RecordCheckInDto,
  RecordCheckInQueryDto,
} from './dto/record-check-in.dto';
import { SCAN_REFUSALS } from './scan-decision';
import {
  type Scan,
  type ScanAnswer,
  type ScanOutcome,
  ScanRecorder,
} from './scan-recorder';
import { RESOURCE } from '../common/resources/resource-identities';

/** Check-ins never change: sync reads them by created_at (docs/API.md, "Incremental sync"). */
const CHECK_IN_SYNC_COLUMNS = { created_at: 'ci.created_at' };

/**
 * Reads a box office's check-ins (docs/API.md, "Check-ins"), and records door scans (docs/API.md,
 * "POST /v1/check_ins").
 */
@Injectable()
export class CheckInsService {
  readonly reader: ResourceReader;
  private readonly scans: ScanRecorder;
  /** Each outcome's count (docs/OPERATIONS.md, Metrics). */
  private readonly counted: Record<ScanOutcome | 'replayed', Counter.Internal>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly horizon: SyncHorizon,
    private readonly writes: Writes,
    metrics: Metrics,
  ) {
    this.reader = new ResourceReader(dataSource, CHECK_IN_SOURCE);
    this.scans = new ScanRecorder(
      dialectFor(dataSource.options.type),
      this.reader,
      new ResourceReader(dataSource, ISSUED_TICKET_SOURCE),
    );
    const refused = metrics.counter({
      name: 'boxoffice_scans_refused_total',
      help: "Door scans refused 409 by the ticket's state, by reason (the error code); nothing was written",
      labelNames: ['reason'],
    });
    // Every series exists from the start, at 0, so that rate() sees the first of each.
    this.counted = {
      recorded: metrics
        .counter({
          name: 'boxoffice_scans_recorded_total',
          help: 'Door scans recorded (POST /v1/check_ins answered 201)',
        })
        .labels(),
      replayed: metrics
        .counter({
          name: 'boxoffice_scans_replayed_total',
          help: "Door scan retries answered with the first request's kept answer (Idempotent-Replayed)",
        })
        .labels(),
      ...(Object.fromEntries(
        SCAN_REFUSALS.map((reason) => [reason, refused.labels(reason)]),
      ) as Record<(typeof SCAN_REFUSALS)[number], Counter.Internal>),
    };
    for (const counter of Object.values(this.counted)) counter.inc(0);
  }

  /**
   * One scan, run by Writes (common/writes) as the scan's unit of work (ScanRecorder), and
   * counted by what became of it: 201 with the CheckIn, or 409 with the check-in that decides
   * the refusal, or a retry's kept answer. A scan that ends otherwise (404, 400, a failure)
   * keeps nothing and counts nothing.
   */
  async answerScan(
    caller: Caller,
    body: RecordCheckInDto,
    query: RecordCheckInQueryDto,
    keys: RetryKeys,
  ): Promise<ScanAnswer | ReplayedAnswer> {
    const office = caller.boxOfficeId;
    const answer = await this.writes.run(caller, keys, () => {
      const scan = scanOf(body, query);
      return {
        operation: 'POST /v1/check_ins',
        request: { ...scan },
        work: () => this.scans.scan(office, scan),
      };
    });
    this.counted['replayed' in answer ? 'replayed' : answer.outcome].inc();
    return answer;
  }

  /** A page, read below the sync horizon taken first. */
  async list(boxOfficeId: number, query: ListCheckInsQueryDto): Promise<Page> {
    const horizon = await this.horizon.read(boxOfficeId);
    return this.reader.page(
      boxOfficeId,
      pageRequest(
        query,
        checkInFilters(query),
        syncPage(query, CHECK_IN_SYNC_COLUMNS, horizon),
      ),
    );
  }

  /** One check-in's JSON bytes; 404 for a malformed id, a missing one or another box office's. */
  retrieve(boxOfficeId: number, checkInId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, checkInId);
  }
}

/** The list's filters, each served by an index that starts (box office, its column). */
export function checkInFilters(query: ListCheckInsQueryDto): Filter[] {
  const found = [
    ...filters.range(query, 'created_at', 'ci.created_at'),
    ...filters.range(query, 'check_in_at', 'ci.check_in_at'),
  ];
  const ids = [
    ['event_id', RESOURCE.event.prefix, 'ci.event_id'],
    ['event_series_id', RESOURCE.eventSeries.prefix, 'ci.event_series_id'],
    ['issued_ticket_id', RESOURCE.issuedTicket.prefix, 'ci.issued_ticket_id'],
  ] as const;
  for (const [key, prefix, column] of ids) {
    const list = query[key];
    if (list !== undefined) {
      found.push(filters.oneOf(column, filters.prefixedIds(prefix, list)));
    }
  }
  if (query.quantity !== undefined) {
    found.push(filters.equals('ci.quantity', Number(query.quantity)));
  }
  return found;
}

/**
 * The scan a validated body and query ask for: the ticket it names, its defaults filled in.
 * `eventIds` and `expand` are left out when not asked for, so that a request without them is the
 * same request, for its Idempotency-Key, as it was before they existed.
 */
function scanOf(body: RecordCheckInDto, query: RecordCheckInQueryDto): Scan {
  const ticket = ticketOf(body);
  const scan: Scan = {
    ticket,
    quantity: body.quantity ?? 1,
    checkInAt: body.check_in_at ?? null,
  };
  if (body.event_id !== undefined) {
    scan.eventIds = filters.prefixedIds(RESOURCE.event.prefix, body.event_id);
  }
  if (query.expand !== undefined) scan.expand = query.expand;
  return scan;
}

/** The ticket a validated body names. */
function ticketOf(body: RecordCheckInDto): Scan['ticket'] {
  if (body.barcode !== undefined) return { barcode: body.barcode };
  const id = parsePrefixedId(
    RESOURCE.issuedTicket.prefix,
    body.issued_ticket_id,
  );
  // Well-formed, but too large for any row's id.
  if (id === null) {
    throw ApiError.notFound(
      `No issued ticket ${body.issued_ticket_id} in this box office`,
    );
  }
  return { id };
}
