import { randomUUID } from 'node:crypto';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { type ChangeRow, changePage } from '../changes/change-feed';
import { DrainState } from '../common/http/drain-state';
import { Metrics } from '../common/metrics/metrics';
import type { HistogramChild } from '../common/metrics/bucket-histogram';
import { AppConfig, type WebhookSettings } from '../config/app-config';
import type { Row } from '../database/row-reader';
import {
  dialectFor,
  type SqlDialect,
  SqlParams,
} from '../database/sql-dialect';
import {
  type RunWrite,
  type WriteWork,
  statementWrites,
  writeTransactions,
} from '../database/write-transaction';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookSecrets } from './webhook-secrets';
import {
  ABORTED,
  ATTEMPT_OUTCOMES,
  type Attempt,
  type AttemptOutcome,
  WebhookSender,
  outcomeOf,
} from './webhook-sender';
import { signDelivery } from './webhook-signer';
import { RESOURCE, idOf } from '../common/resources/resource-identities';

/** Entries read from the feed at a time while looking for an endpoint's next event. */
const FEED_PAGE = 100;
/** Events sent to one endpoint before its lease is let go, so that the others get their turn. */
const EVENTS_PER_LEASE = 200;

/** A value written as SQL, not as a parameter: an expression of the database's clock. */
class SqlValue {
  constructor(readonly sql: string) {}
}
const sql = (expression: string) => new SqlValue(expression);

/** An endpoint as a worker holds it: where it stands and what it wants. */
interface Held {
  id: number;
  boxOfficeId: number;
  url: string;
  events: readonly string[];
  /** `enabled_events` as stored, to tell a change of them. */
  eventsJson: string;
  secret: string;
  deliveredThrough: number;
  failures: number;
  version: number;
  enabled: boolean;
}

const RETURNED = `id, box_office_id, url, enabled_events, secret, delivered_through, failures,
  state_version, status`;

function heldOf(row: Row): Held {
  return {
    id: Number(row.id),
    boxOfficeId: Number(row.box_office_id),
    url: String(row.url),
    events: JSON.parse(String(row.enabled_events)) as string[],
    eventsJson: String(row.enabled_events),
    secret: String(row.secret),
    deliveredThrough: Number(row.delivered_through),
    failures: Number(row.failures),
    version: Number(row.state_version),
    enabled: row.status === 'enabled',
  };
}

/**
 * Delivers the change feed to webhook endpoints (docs/API.md, "Webhooks"; docs/OPERATIONS.md,
 * "Webhooks"). Every instance runs one; they share the work through the database:
 *
 * - An instance takes an endpoint that has events after its position and is due, by a lease on
 *   its row (`lease_owner`, `lease_until`) taken in one UPDATE: on PostgreSQL its row is chosen
 *   with `FOR UPDATE SKIP LOCKED`, so instances looking at once take different endpoints; on
 *   SQLite the statement runs under the database's write lock. A poll reads first and writes only
 *   when an endpoint is due (claim). Every time written or compared (a lease's end, a retry's
 *   time, failing_since, an attempt's time) is the database's clock, one for every instance
 *   however their own clocks drift. The lease is renewed by each
 *   event's outcome and while a send is in flight, and let go after the last; an instance that stops without letting go (killed) loses it
 *   when it expires, WEBHOOK_LEASE_S later, and another takes the endpoint over.
 * - While it holds the lease, the instance sends the endpoint's events one at a time, in feed
 *   order: the next is sent after the previous was answered 2xx. A failure waits for the retry
 *   schedule (WEBHOOK_RETRY_SCHEDULE, with ±10% jitter); after its last retry, or on a 410, the
 *   endpoint is disabled.
 * - The position moves only after a 2xx, so an event is delivered at least once: an instance
 *   stopped between the answer and the update leaves it to be sent again, with the same `wh_` id.
 *   Every update is conditional on the lease still being this instance's and on `state_version`,
 *   which a replay moves, so that a send finishing after a replay does not undo it.
 *
 * On SIGTERM (the drain), no endpoint is taken any more; the events in flight are finished (each
 * is bounded by the sender's 10 s) and the leases let go, before the database closes.
 */
@Injectable()
export class WebhookDeliveryWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('WebhookDelivery');
  private readonly owner = randomUUID();
  private readonly settings: WebhookSettings;
  private readonly dialect: SqlDialect;
  private readonly sender: WebhookSender;
  private readonly secrets: WebhookSecrets;
  private readonly payloads: WebhookPayloads;
  private readonly statements: RunWrite;
  private readonly write: RunWrite;
  private readonly active = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> = Promise.resolve();
  private stopping = false;
  /** How long closing may take (SHUTDOWN_CLOSE_MS): half of it is left to sends in flight. */
  private readonly closeMs: number;
  private readonly attempts: Record<AttemptOutcome, Counter.Internal>;
  private readonly lag: HistogramChild;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
    metrics: Metrics,
    private readonly drain: DrainState,
  ) {
    this.settings = config.webhooks;
    this.closeMs = config.shutdown.closeMs;
    this.dialect = dialectFor(dataSource.options.type);
    this.sender = new WebhookSender(this.settings.allowPrivateUrls);
    this.secrets = new WebhookSecrets(this.settings.secretKey);
    this.payloads = new WebhookPayloads(dataSource);
    this.statements = statementWrites(dataSource);
    this.write = writeTransactions(dataSource);
    const attempts = metrics.counter({
      name: 'boxoffice_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome: delivered (2xx), failed_status (another status), gone (410: the endpoint is disabled), timeout, refused (an address not allowed), failed_connection',
      labelNames: ['outcome'],
    });
    this.attempts = Object.fromEntries(
      ATTEMPT_OUTCOMES.map((outcome) => [outcome, attempts.labels(outcome)]),
    ) as Record<AttemptOutcome, Counter.Internal>;
    for (const counter of Object.values(this.attempts)) counter.inc(0);
    this.lag = metrics
      .histogram({
        name: 'boxoffice_webhook_delivery_lag_seconds',
        help: "Seconds from a change-feed entry to its webhook's delivery (2xx), retries included",
        labelNames: [],
        buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400],
      })
      .labels();
    metrics.readGauge(
      {
        name: 'boxoffice_webhook_failing_seconds',
        help: 'How long the enabled webhook endpoint failing longest has been failing, in seconds (0: none is); read at each scrape',
      },
      () => this.failingSeconds(),
    );
  }

  /**
   * One statement, committed on its own: each of the worker's writes is a single conditional
   * statement, which decides from what it finds (docs/DEVELOPMENT.md, "Writes").
   */
  private run(sql: string, params: unknown[]): Promise<Row[]> {
    return this.statements(function* (): WriteWork<Row[]> {
      return yield { sql, params };
    });
  }

  onApplicationBootstrap() {
    this.schedule();
  }

  /**
   * The drain's end (docs/DESIGN.md, Shutdown): no endpoint is taken any more (none has been since
   * the drain began), the sends in flight get half of SHUTDOWN_CLOSE_MS to be answered, then are
   * ended, and every lease is let go, so that another instance takes the endpoints over at once.
   * An event whose send was ended is sent again, with its id: a receiver may see it twice.
   */
  async beforeApplicationShutdown() {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.polling;
    const finished = Promise.all(this.active);
    const grace = new Promise<void>((resolve) =>
      setTimeout(resolve, this.closeMs / 2).unref(),
    );
    await Promise.race([finished, grace]);
    this.sender.abortAll();
    await Promise.all(this.active);
    this.sender.close();
  }

  private get halted(): boolean {
    return this.stopping || this.drain.draining;
  }

  private schedule() {
    if (this.halted) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll()
        .catch((error: unknown) =>
          this.logger.warn(`webhook poll failed, retrying: ${String(error)}`),
        )
        .finally(() => this.schedule());
    }, this.settings.pollMs);
    this.timer.unref();
  }

  /** Takes due endpoints while this instance has room for more. */
  async poll(): Promise<void> {
    while (!this.halted && this.active.size < this.settings.concurrency) {
      const held = await this.claim();
      if (held === null) return;
      const run: Promise<void> = this.serve(held)
        .catch((error: unknown) =>
          this.logger.warn(
            `delivering to webhook endpoint ${idOf(RESOURCE.webhookEndpoint, held.id)} failed: ${String(error)}`,
          ),
        )
        .finally(() => this.active.delete(run));
      this.active.add(run);
    }
  }

  /**
   * The lease on one endpoint that is due and has an event after its position, or null. A read
   * comes first, so that a poll with nothing to do (the usual case) writes nothing: on SQLite no
   * write lock is taken, on PostgreSQL no row is locked. Only when an endpoint is due does the
   * UPDATE run, which decides again under its lock (another instance may have taken it since).
   * Every time is the database's clock (SqlDialect.nowMs), never this instance's, so instances
   * whose clocks drift apart agree on whether a lease is live.
   */
  private async claim(): Promise<Held | null> {
    const nowMs = this.dialect.nowMs;
    const due = `we.status = 'enabled' AND we.next_attempt_at <= ${nowMs}
             AND we.lease_until < ${nowMs} AND h.last_id > we.delivered_through`;
    const found = await this.dataSource.query<Row[]>(
      `SELECT we.id FROM webhook_endpoints we
         JOIN change_heads h ON h.box_office_id = we.box_office_id
        WHERE ${due} LIMIT 1`,
    );
    if (found.length === 0) return null;
    const p = new SqlParams(this.dialect);
    const owner = p.add(this.owner);
    const lease = p.add(this.settings.leaseMs);
    const lock =
      this.dialect.name === 'postgres' ? 'FOR UPDATE OF we SKIP LOCKED' : '';
    const rows = await this.run(
      `UPDATE webhook_endpoints SET lease_owner = ${owner}, lease_until = ${nowMs} + ${lease}
        WHERE id = (
          SELECT we.id FROM webhook_endpoints we
            JOIN change_heads h ON h.box_office_id = we.box_office_id
           WHERE ${due}
           ORDER BY we.next_attempt_at, we.id LIMIT 1 ${lock})
        RETURNING ${RETURNED}`,
      p.values,
    );
    return rows.length === 0 ? null : heldOf(rows[0]);
  }

  /** Renews the lease (while a send is in flight); null when the lease is lost or it is disabled. */
  private async renew(id: number): Promise<Held | null> {
    const p = new SqlParams(this.dialect);
    const rows = await this.run(
      `UPDATE webhook_endpoints SET lease_until = ${this.dialect.nowMs} + ${p.add(this.settings.leaseMs)}
        WHERE id = ${p.add(id)} AND lease_owner = ${p.add(this.owner)} AND status = 'enabled'
        RETURNING ${RETURNED}`,
      p.values,
    );
    return rows.length === 0 ? null : heldOf(rows[0]);
  }

  private async release(id: number): Promise<void> {
    const p = new SqlParams(this.dialect);
    await this.run(
      `UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = 0
        WHERE id = ${p.add(id)} AND lease_owner = ${p.add(this.owner)}`,
      p.values,
    );
  }

  /**
   * Sends the endpoint's events in order while they succeed, then lets the lease go. The events
   * to come are read a page at a time; the page is read again when the endpoint's events or
   * position changed (a replay, new enabled_events) other than by this delivery.
   */
  private async serve(first: Held): Promise<void> {
    try {
      let held: Held | null = first;
      let upcoming: ChangeRow[] = [];
      for (let sent = 0; held !== null && sent < EVENTS_PER_LEASE; sent++) {
        if (this.halted) return;
        if (upcoming.length === 0) upcoming = await this.upcoming(held);
        const next = upcoming.shift();
        if (next === undefined) return;
        // The next event follows at once after a 2xx, with the endpoint's state as it is now.
        const before: Held = held;
        held = await this.deliver(held, next);
        if (held !== null && held.eventsJson !== before.eventsJson)
          upcoming = [];
      }
    } finally {
      await this.release(first.id);
    }
  }

  /**
   * The endpoint's next events: the entries of a type it listens to on the first page after its
   * position that has any. The entries passed over on the way are skipped for good (the position
   * moves past them).
   */
  private async upcoming(held: Held): Promise<ChangeRow[]> {
    const all = held.events.includes('*');
    let after = held.deliveredThrough;
    for (;;) {
      const page = await changePage(this.dataSource, {
        boxOfficeId: held.boxOfficeId,
        after,
        limit: FEED_PAGE,
      });
      const found = page.filter(
        (entry) => all || held.events.includes(entry.type),
      );
      if (found.length > 0) {
        if (found[0].id - 1 > held.deliveredThrough) {
          if (!(await this.advance(held, found[0].id - 1))) return [];
        }
        return found;
      }
      if (page.length === 0) {
        if (after > held.deliveredThrough) await this.advance(held, after);
        return [];
      }
      after = page[page.length - 1].id;
    }
  }

  /** Moves the position to `through` unless a replay or another instance moved it meanwhile. */
  private async advance(held: Held, through: number): Promise<boolean> {
    const p = new SqlParams(this.dialect);
    const rows = await this.run(
      `UPDATE webhook_endpoints SET delivered_through = ${p.add(through)}
        WHERE id = ${p.add(held.id)} AND lease_owner = ${p.add(this.owner)}
          AND state_version = ${p.add(held.version)} AND delivered_through = ${p.add(held.deliveredThrough)}
        RETURNING id`,
      p.values,
    );
    if (rows.length === 0) return false;
    held.deliveredThrough = through;
    return true;
  }

  /**
   * One attempt: signs and sends the event, records the attempt, and moves the endpoint on (2xx),
   * schedules the retry, or disables it (410, or the last retry failed). After a 2xx, the
   * endpoint as it is now (its lease renewed), for the next event; else null.
   */
  private async deliver(held: Held, change: ChangeRow): Promise<Held | null> {
    let attempt: Attempt;
    try {
      const body = await this.payloads.body(held.boxOfficeId, change);
      const secret = this.secrets.open(held.secret);
      const headers = signDelivery(
        secret,
        idOf(RESOURCE.webhookEvent, change.id),
        body,
        new Date(),
      );
      // The lease is kept while the receiver takes its time (up to DELIVERY_TIMEOUT_MS, which
      // may be longer than WEBHOOK_LEASE_S), so that no other instance sends the next event.
      // A renewal that finds the lease gone (taken over, the endpoint disabled) or cannot reach
      // the database ends the send: another instance may be sending this event, and one that
      // was not acknowledged is sent again (at least once, never two at once).
      const lost = new AbortController();
      const heartbeat = setInterval(() => {
        this.renew(held.id).then(
          (renewed) => renewed === null && lost.abort(),
          () => lost.abort(),
        );
      }, this.settings.leaseMs / 3);
      try {
        attempt = await this.sender.send(held.url, body, headers, lost.signal);
      } finally {
        clearInterval(heartbeat);
      }
    } catch (error) {
      // The service's own failure (the database, a secret it cannot open): nothing was sent.
      this.logger.warn(
        `webhook endpoint ${idOf(RESOURCE.webhookEndpoint, held.id)}: could not prepare ${idOf(RESOURCE.webhookEvent, change.id)}: ${String(error)}`,
      );
      attempt = {
        statusCode: null,
        error: 'not sent: internal error',
        durationMs: 0,
      };
    }
    // Ended by the instance's stop or the lease's loss, not by the receiver: neither a failure
    // nor an attempt.
    if (attempt.error === ABORTED) return null;
    const outcome = outcomeOf(attempt);
    this.attempts[outcome].inc();
    const { now, nowMs } = this.dialect;
    if (outcome === 'delivered') {
      // The lag is the metric's alone: the entry's stamp (the database's clock) against this
      // instance's, which an instance's drift skews by as much.
      this.lag.observe(Math.max(0, Date.now() / 1000 - change.createdAt));
      const settled = await this.settle(held, change, attempt, {
        delivered_through: change.id,
        failures: 0,
        failing_since: null,
        next_attempt_at: 0,
        lease_until: sql(`${nowMs} + ${this.settings.leaseMs}`),
      });
      return settled?.enabled ? settled : null;
    }
    const schedule = this.settings.retryScheduleSeconds;
    const failures = held.failures + 1;
    if (outcome === 'gone' || failures > schedule.length) {
      this.logger.warn(
        `webhook endpoint ${idOf(RESOURCE.webhookEndpoint, held.id)} disabled: ${outcome === 'gone' ? 'it answered 410 Gone' : `${idOf(RESOURCE.webhookEvent, change.id)} failed ${failures} times`}`,
      );
      await this.settle(held, change, attempt, {
        status: 'disabled',
        failures: 0,
        next_attempt_at: 0,
      });
      return null;
    }
    const wait = schedule[failures - 1] * 1000 * (0.9 + Math.random() * 0.2);
    await this.settle(held, change, attempt, {
      failures,
      failing_since: held.failures === 0 ? sql(now) : undefined,
      next_attempt_at: sql(`${nowMs} + ${Math.round(wait)}`),
    });
    return null;
  }

  /** The attempt's row, unless the endpoint was deleted meanwhile (its parameters into `p`). */
  private recordSql(
    p: SqlParams,
    held: Held,
    change: ChangeRow,
    attempt: Attempt,
  ): string {
    return `INSERT INTO webhook_deliveries
         (endpoint_id, box_office_id, change_id, event, status_code, error, duration_ms, attempted_at)
       SELECT id, box_office_id, ${p.add(change.id)}, ${p.add(change.type)}, ${p.add(
         attempt.statusCode,
       )}, ${p.add(attempt.error)}, ${p.add(attempt.durationMs)}, ${this.dialect.now}
         FROM webhook_endpoints WHERE id = ${p.add(held.id)}`;
  }

  /**
   * Records the attempt and writes the endpoint's new state, atomically (one commit per
   * delivery): the state only if the lease is still this instance's and no replay came meanwhile;
   * `undefined` values are left as they are, `sql(…)` ones are SQL (the database's clock). The
   * endpoint as written (its URL and events as they are now), or null when it was not.
   *
   * On PostgreSQL one statement, the attempt's INSERT in a WITH of the UPDATE, committed on its
   * own: one round trip where a transaction of the two takes four, and round trips, not the
   * statements' work, are what a delivery's time was made of
   * (bench/notes/2026-12-07-webhook-delivery-2.md). SQLite runs in this process, where a
   * transaction costs no round trip, and has no INSERT in a WITH: the two statements there.
   */
  private async settle(
    held: Held,
    change: ChangeRow,
    attempt: Attempt,
    values: Record<string, string | number | null | SqlValue | undefined>,
  ): Promise<Held | null> {
    const update = (p: SqlParams) => {
      const sets = Object.entries(values)
        .filter(([, value]) => value !== undefined)
        .map(
          ([column, value]) =>
            `${column} = ${value instanceof SqlValue ? value.sql : p.add(value)}`,
        );
      return `UPDATE webhook_endpoints SET ${sets.join(', ')}
        WHERE id = ${p.add(held.id)} AND lease_owner = ${p.add(this.owner)}
          AND state_version = ${p.add(held.version)} AND delivered_through = ${p.add(held.deliveredThrough)}
        RETURNING ${RETURNED}`;
    };
    let rows: Row[];
    if (this.dialect.name === 'postgres') {
      const p = new SqlParams(this.dialect);
      const sql = `WITH recorded AS (${this.recordSql(p, held, change, attempt)})
        ${update(p)}`;
      rows = await this.run(sql, p.values);
    } else {
      const r = new SqlParams(this.dialect);
      const record = {
        sql: this.recordSql(r, held, change, attempt),
        params: r.values,
      };
      const u = new SqlParams(this.dialect);
      const next = { sql: update(u), params: u.values };
      rows = await this.write(function* (): WriteWork<Row[]> {
        yield record;
        return yield next;
      });
    }
    return rows.length === 1 ? heldOf(rows[0]) : null;
  }

  /** Seconds since the enabled endpoint failing longest started failing (0: none is). */
  private async failingSeconds(): Promise<number> {
    const rows = await this.dataSource.query<{ seconds: unknown }[]>(
      `SELECT ${this.dialect.now} - min(failing_since) AS seconds FROM webhook_endpoints
        WHERE status = 'enabled' AND failing_since IS NOT NULL`,
    );
    const seconds = rows[0]?.seconds;
    return seconds === null || seconds === undefined
      ? 0
      : Math.max(0, Number(seconds));
  }
}
