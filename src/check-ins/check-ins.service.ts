import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/auth.service';
import { parsePrefixedId } from '../common/ids';
import { ApiError } from '../common/errors/api-error';
import {
  IdempotencyKeys,
  KeyTaken,
  type StoredResponse,
  idempotencyKeyOf,
  idempotentRequest,
  inUse,
} from '../common/idempotency/idempotency-keys';
import { Metrics } from '../common/metrics/metrics';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { dialectFor } from '../database/sql-dialect';
import { ISSUED_TICKET_SOURCE } from '../issued-tickets/issued-ticket.fields';
import {
  type RunWrite,
  statementWrites,
  writeTransactions,
} from '../database/write-transaction';
import { SyncHorizon } from '../sync/sync-horizon';
import { syncPage } from '../sync/sync-mode';
import { CHECK_IN_SOURCE } from './check-in.fields';
import { ListCheckInsQueryDto } from './dto/list-check-ins-query.dto';
import {
  RecordCheckInDto,
  RecordCheckInQueryDto,
} from './dto/record-check-in.dto';
import { SCAN_REFUSALS } from './scan-decision';
import { type Scan, type ScanOutcome, ScanRecorder } from './scan-recorder';

/** Check-ins never change: sync reads them by created_at (docs/API.md, "Incremental sync"). */
const CHECK_IN_SYNC_COLUMNS = { created_at: 'ci.created_at' };

/**
 * Reads a box office's check-ins (docs/API.md, "Check-ins"), and records door scans (docs/API.md,
 * "POST /v1/check_ins").
 */
@Injectable()
export class CheckInsService {
  readonly reader: ResourceReader;
  private readonly write: RunWrite;
  /** For the key's row read after a scan that kept no answer: a statement on its own. */
  private readonly read: RunWrite;
  private readonly scans: ScanRecorder;
  private readonly idempotency: IdempotencyKeys;
  /** Each outcome's count (docs/OPERATIONS.md, Metrics). */
  private readonly counted: Record<ScanOutcome | 'replayed', Counter.Internal>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly horizon: SyncHorizon,
    metrics: Metrics,
  ) {
    this.reader = new ResourceReader(dataSource, CHECK_IN_SOURCE);
    const dialect = dialectFor(dataSource.options.type);
    this.write = writeTransactions(dataSource);
    this.read = statementWrites(dataSource);
    this.scans = new ScanRecorder(
      dialect,
      this.reader,
      new ResourceReader(dataSource, ISSUED_TICKET_SOURCE),
    );
    this.idempotency = new IdempotencyKeys(dialect);
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
   * Records one scan, in one write transaction, and answers it: 201 with the CheckIn, or 409 with
   * the check-in that decides the refusal. With an Idempotency-Key, the answer is kept in that
   * same transaction, and a retry gets it again (idempotency-keys.ts); a scan that ends otherwise
   * (404, 400, a failure) keeps nothing. `idempotencyKeys`: each Idempotency-Key header field
   * as received; the body's `local_unique_id` stands in for it when there is none.
   */
  async record(
    caller: Caller,
    body: RecordCheckInDto,
    query: RecordCheckInQueryDto,
    idempotencyKeys: readonly string[] | undefined,
  ): Promise<StoredResponse & { outcome: ScanOutcome | 'replayed' }> {
    const answer = await this.answer(caller, body, query, idempotencyKeys);
    this.counted[answer.outcome].inc();
    return answer;
  }

  private async answer(
    caller: Caller,
    body: RecordCheckInDto,
    query: RecordCheckInQueryDto,
    idempotencyKeys: readonly string[] | undefined,
  ): Promise<StoredResponse & { outcome: ScanOutcome | 'replayed' }> {
    const key = retryKeyOf(idempotencyKeyOf(idempotencyKeys), body);
    const scan = scanOf(body, query);
    const office = caller.boxOfficeId;
    if (key === null) return this.write(() => this.scans.record(office, scan));
    const retry = idempotentRequest(key, caller.apiKeyId, {
      operation: 'POST /v1/check_ins',
      ...scan,
    });
    const { scans, idempotency } = this;
    try {
      return await this.write(function* () {
        yield* idempotency.hold(retry);
        const answer = yield* scans.record(office, scan);
        yield* idempotency.keep(retry, answer);
        return answer;
      });
    } catch (error) {
      // Rolled back: the key's row, if another request kept one, decides (a retry of an answered
      // scan, whatever this one found), else this request's own outcome stands.
      if (!(error instanceof KeyTaken || error instanceof ApiError))
        throw error;
      const kept = await this.read(() => idempotency.kept(retry));
      if (kept !== null) return { ...kept, outcome: 'replayed' };
      if (error instanceof KeyTaken) throw inUse();
      throw error;
    }
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
    ['event_id', 'ev_', 'ci.event_id'],
    ['event_series_id', 'es_', 'ci.event_series_id'],
    ['issued_ticket_id', 'it_', 'ci.issued_ticket_id'],
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
 * The key that makes a scan safe to retry: the Idempotency-Key header, else the body's
 * `local_unique_id` (Ticket Tailor's retry key); both given must agree (docs/API.md,
 * "Recording scans"). Not part of what the request asks for: a retry may name its key either
 * way.
 */
function retryKeyOf(
  header: string | null,
  body: RecordCheckInDto,
): string | null {
  const local = body.local_unique_id ?? null;
  if (header !== null && local !== null && header !== local) {
    throw ApiError.invalidBody([
      {
        field: 'local_unique_id',
        messages: [
          'local_unique_id must equal the Idempotency-Key header when both are sent',
        ],
      },
    ]);
  }
  return header ?? local;
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
    scan.eventIds = filters.prefixedIds('ev_', body.event_id);
  }
  if (query.expand !== undefined) scan.expand = query.expand;
  return scan;
}

/** The ticket a validated body names. */
function ticketOf(body: RecordCheckInDto): Scan['ticket'] {
  if (body.barcode !== undefined) return { barcode: body.barcode };
  const id = parsePrefixedId('it_', body.issued_ticket_id);
  // Well-formed, but too large for any row's id.
  if (id === null) {
    throw ApiError.notFound(
      `No issued ticket ${body.issued_ticket_id} in this box office`,
    );
  }
  return { id };
}
