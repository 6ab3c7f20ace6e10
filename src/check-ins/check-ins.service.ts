import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/auth.service';
import { parsePrefixedId } from '../common/ids';
import { ApiError } from '../common/errors/api-error';
import {
  IdempotencyKeys,
  type StoredResponse,
  idempotencyKeyOf,
  idempotentRequest,
} from '../common/idempotency/idempotency-keys';
import { Metrics } from '../common/metrics/metrics';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { dialectFor } from '../database/sql-dialect';
import {
  type RunWrite,
  statementWrites,
  writeTransactions,
} from '../database/write-transaction';
import { SyncHorizon } from '../sync/sync-horizon';
import { syncPage } from '../sync/sync-mode';
import { CHECK_IN_SOURCE } from './check-in.fields';
import { ListCheckInsQueryDto } from './dto/list-check-ins-query.dto';
import { RecordCheckInDto } from './dto/record-check-in.dto';
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
  /** For the claim and its release, whose statements each stand alone. */
  private readonly writeEach: RunWrite;
  private readonly scans: ScanRecorder;
  private readonly idempotency: IdempotencyKeys;
  /** SqlDialect.writesInTurn: the claim may share the scan's transaction. */
  private readonly claimInTheScan: boolean;
  /** Each outcome's count (docs/OPERATIONS.md, Metrics). */
  private readonly counted: Record<ScanOutcome | 'replayed', Counter.Internal>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly horizon: SyncHorizon,
    metrics: Metrics,
  ) {
    this.reader = new ResourceReader(dataSource, CHECK_IN_SOURCE);
    const dialect = dialectFor(dataSource.options.type);
    this.claimInTheScan = dialect.writesInTurn;
    this.write = writeTransactions(dataSource);
    this.writeEach = statementWrites(dataSource);
    this.scans = new ScanRecorder(dialect, this.reader);
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
   * same transaction, and a retry gets it again; a scan that ends otherwise (404, 400, a failure)
   * gives the key back. The key is claimed first and committed, so that a retry on another
   * instance sees it; on SQLite, in the scan's transaction (SqlDialect.writesInTurn).
   */
  async record(
    caller: Caller,
    body: RecordCheckInDto,
    idempotencyKey: string | undefined,
  ): Promise<StoredResponse & { outcome: ScanOutcome | 'replayed' }> {
    const answer = await this.answer(caller, body, idempotencyKey);
    this.counted[answer.outcome].inc();
    return answer;
  }

  private async answer(
    caller: Caller,
    body: RecordCheckInDto,
    idempotencyKey: string | undefined,
  ): Promise<StoredResponse & { outcome: ScanOutcome | 'replayed' }> {
    const key = idempotencyKeyOf(idempotencyKey);
    const scan = scanOf(body);
    const office = caller.boxOfficeId;
    if (key === null) return this.write(() => this.scans.record(office, scan));
    const retry = idempotentRequest(key, caller.apiKeyId, {
      operation: 'POST /v1/check_ins',
      ...scan,
    });
    const { scans, idempotency } = this;
    const recordKept = function* (token: string) {
      const answer = yield* scans.record(office, scan);
      yield* idempotency.store(retry, token, answer);
      return answer;
    };
    if (this.claimInTheScan) {
      // No other request can see the claim before the answer is kept: one transaction claims,
      // records and keeps, and a throw (404, 400, a failure) gives all three back.
      return this.write(function* () {
        const claim = yield* idempotency.claim(retry);
        if ('replay' in claim) {
          return { ...claim.replay, outcome: 'replayed' as const };
        }
        return yield* recordKept(claim.token);
      });
    }
    const claim = await this.writeEach(() => idempotency.claim(retry));
    if ('replay' in claim) return { ...claim.replay, outcome: 'replayed' };
    try {
      return await this.write(() => recordKept(claim.token));
    } catch (error) {
      await this.writeEach(() => idempotency.release(retry, claim.token)).catch(
        () => undefined, // the claim's lease runs out instead
      );
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

/** The scan a validated body asks for: the ticket it names, its defaults filled in. */
function scanOf(body: RecordCheckInDto): Scan {
  const quantity = body.quantity ?? 1;
  const checkInAt = body.check_in_at ?? null;
  if (body.barcode !== undefined) {
    return { ticket: { barcode: body.barcode }, quantity, checkInAt };
  }
  const id = parsePrefixedId('it_', body.issued_ticket_id);
  // Well-formed, but too large for any row's id.
  if (id === null) {
    throw ApiError.notFound(
      `No issued ticket ${body.issued_ticket_id} in this box office`,
    );
  }
  return { ticket: { id }, quantity, checkInAt };
}
