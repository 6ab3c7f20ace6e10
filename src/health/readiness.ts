import { Injectable, Logger } from '@nestjs/common';
import {
  HealthIndicatorService,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sharedWhileRunning, within } from '../common/bounded-read';
import { DrainState } from '../common/http/drain-state';
import { type ReadRows, rowReader } from '../database/row-reader';

/** How long readiness waits for its database read before it answers 503. */
export const READINESS_TIMEOUT_MS = 1_000;

/** What the last database read found: the migrations applied, or why there was no answer. */
type DatabaseState =
  | { readonly applied: ReadonlySet<string> }
  | { readonly failure: string; readonly detail: string };

/**
 * Whether this instance should receive traffic (docs/OPERATIONS.md, Health checks): not while it
 * drains; else only when its database answers a read of a real table and every migration this
 * release knows is applied. The read is of the migrations table itself, so one statement answers
 * both: a `SELECT 1` would still answer while an SQLite file's pages cannot be read. Migrations
 * applied that this release does not know (a newer release migrated first, in a rolling deploy)
 * leave it ready: they were written to keep the release before them serving.
 *
 * Probes that arrive while a read is running share it, so a balancer probing often, or a
 * database that hangs, never has more than one readiness read in flight.
 */
@Injectable()
export class Readiness {
  private readonly logger = new Logger('Readiness');
  private readonly read: ReadRows;
  private readonly statement: string;
  private readonly expected: readonly string[];
  /** The reason the last probe was refused, null when it was ready: changes are logged. */
  private lastRefusal: string | null = null;

  constructor(
    private readonly indicators: HealthIndicatorService,
    @InjectDataSource() dataSource: DataSource,
    private readonly drain: DrainState,
  ) {
    this.read = rowReader(dataSource);
    const table = dataSource.options.migrationsTableName ?? 'migrations';
    this.statement = `SELECT name FROM ${table}`;
    // Named as TypeORM names them in that table.
    this.expected = dataSource.migrations.map(
      (migration) => migration.name || migration.constructor.name,
    );
  }

  /**
   * The indicators of readiness, each `up` or `down` with a message that can be shown to anyone
   * (the database's own error goes to the log only).
   */
  async check(): Promise<HealthIndicatorResult> {
    if (this.drain.draining) {
      return this.refuse(
        this.indicators
          .check('shutdown')
          .down({ message: 'this instance is shutting down' }),
      );
    }
    const state = await this.databaseState();
    if ('failure' in state) {
      return this.refuse(
        this.indicators.check('database').down({ message: state.failure }),
        state.detail,
      );
    }
    const pending = this.expected.filter((name) => !state.applied.has(name));
    const database = this.indicators.check('database').up();
    if (pending.length > 0) {
      return this.refuse(
        {
          ...database,
          ...this.indicators.check('migrations').down({
            message: `${pending.length} of ${this.expected.length} migrations are not applied yet`,
          }),
        },
        `pending: ${pending.join(', ')}`,
      );
    }
    if (this.lastRefusal !== null) {
      this.logger.log(`ready again (was: ${this.lastRefusal})`);
      this.lastRefusal = null;
    }
    return {
      ...database,
      ...this.indicators
        .check('migrations')
        .up({ applied: this.expected.length }),
    };
  }

  /** Logs a change of the reason, with the database's own words when there are any. */
  private refuse(
    result: HealthIndicatorResult,
    detail?: string,
  ): HealthIndicatorResult {
    const reason = Object.entries(result)
      .filter(([, indicator]) => indicator.status === 'down')
      .map(([key, indicator]) => `${key}: ${String(indicator.message)}`)
      .join('; ');
    if (reason !== this.lastRefusal) {
      this.logger.warn(
        `not ready: ${reason}${detail === undefined ? '' : ` (${detail})`}`,
      );
      this.lastRefusal = reason;
    }
    return result;
  }

  private async databaseState(): Promise<DatabaseState> {
    return (
      (await within(this.readMigrations(), READINESS_TIMEOUT_MS)) ?? {
        failure: `the database did not answer within ${READINESS_TIMEOUT_MS} ms`,
        detail: 'timeout',
      }
    );
  }

  /** The applied migrations' names, read once at a time however many probes wait for them. */
  private readonly readMigrations = sharedWhileRunning(() =>
    this.read(this.statement, []).then(
      (rows): DatabaseState => ({
        applied: new Set(rows.map((row) => String(row.name))),
      }),
      (error: unknown): DatabaseState =>
        isMissingTable(error)
          ? { applied: new Set() }
          : {
              failure: 'the database does not answer',
              detail: errorMessage(error),
            },
    ),
  );
}

/** No migrations table yet: a database nothing has migrated (MIGRATIONS_RUN=false). */
function isMissingTable(error: unknown): boolean {
  const driverError =
    (error as { driverError?: unknown } | null)?.driverError ?? error;
  const { code, message } = (driverError ?? {}) as {
    code?: unknown;
    message?: unknown;
  };
  return (
    code === '42P01' ||
    (code === 'SQLITE_ERROR' &&
      typeof message === 'string' &&
      message.startsWith('no such table'))
  );
}

function errorMessage(error: unknown): string {
  const driverError =
    (error as { driverError?: unknown } | null)?.driverError ?? error;
  return driverError instanceof Error
    ? `${(driverError as { code?: string }).code ?? driverError.name}: ${driverError.message}`
    : String(driverError);
}
