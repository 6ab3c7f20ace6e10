import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { type ReadRows, rowReader } from '../database/row-reader';
import { SqlParams, type Statement, dialectFor } from '../database/sql-dialect';
import { syncHorizonExpression } from '../sync/sync-horizon';

/**
 * A box office's data version: `<import generation>.<change head>`, read in one statement (docs/API.md, "A 304 without reading a row"). It moves with every committed write
 * that can change what the box office's orders, issued tickets and check-ins show:
 *
 * - outside import mode, every such write makes a change entry in the writing transaction, and
 *   the head (`change_heads.last_id`) is only visible once that transaction has committed
 *   (migration SyncAndChanges). On PostgreSQL entries are numbered after their commit (migration
 *   WritesWithoutHotRows): the part is the head plus the entries still waiting (`change_inbox`),
 *   which counts every committed entry, numbered or not, and so moves at the writer's commit as
 *   before; numbering moves entries from one term to the other in one transaction;
 * - a transaction in import mode makes none, and moves the import generation instead (migration
 *   ImportGeneration).
 *
 * It does not move for counters a sales system writes without a change entry (a ticket type's
 * held and in-basket quantities): with `stock`, a third part does, the box office's stock version
 * (migration StockVersion), for bodies that show them (events). Nor does it move for products,
 * vouchers, discounts and waitlist signups, which make no change entry: with `catalogue`, a part
 * does, the box office's catalogue version (migration ConnectorCatalogue), for bodies made of
 * them. Nor does it move with the clock: responses that depend on it are compared by their bytes.
 * With `horizon` (the SYNC_LAG_S setting), the same statement also reads the box office's sync
 * horizon (sync-horizon.ts), for the watermark of a list's 304: one round trip instead of two.
 */
export function dataVersionStatement(
  databaseType: string,
  boxOfficeId: number,
  {
    stock = false,
    catalogue = false,
    horizon,
  }: {
    stock?: boolean;
    catalogue?: boolean;
    horizon?: { lagSeconds: number };
  } = {},
): Statement {
  const params = new SqlParams(dialectFor(databaseType));
  const head = params.add(boxOfficeId);
  const stockVersion = stock
    ? `,\n            (SELECT version FROM stock_versions WHERE box_office_id = ${params.add(boxOfficeId)}) AS stock`
    : '';
  const catalogueVersion = catalogue
    ? `,\n            (SELECT version FROM catalogue_versions WHERE box_office_id = ${params.add(boxOfficeId)}) AS catalogue`
    : '';
  const syncHorizon = horizon
    ? `,\n            (${syncHorizonExpression(params, horizon.lagSeconds, boxOfficeId)}) AS horizon`
    : '';
  const numbered = `(SELECT last_id FROM change_heads WHERE box_office_id = ${head})`;
  const entries =
    dialectFor(databaseType).name === 'postgres'
      ? `coalesce(${numbered}, 0)
              + (SELECT count(*) FROM change_inbox WHERE box_office_id = ${head})`
      : numbered;
  return {
    sql: `SELECT (SELECT generation FROM import_generation WHERE id = 1) AS generation,
            ${entries} AS head${stockVersion}${catalogueVersion}${syncHorizon}`,
    params: params.values,
  };
}

export interface DataVersionRead {
  /** `<generation>.<head>`, then `.<stock version>` and `.<catalogue version>` when asked for. */
  readonly version: string;
  /** The sync horizon, when asked for. */
  readonly horizon?: number;
}

@Injectable()
export class DataVersion {
  private readonly databaseType: string;
  private readonly lagSeconds: number;
  private readonly rows: ReadRows;

  constructor(@InjectDataSource() dataSource: DataSource, config: AppConfig) {
    this.databaseType = dataSource.options.type;
    this.lagSeconds = config.syncLagSeconds;
    this.rows = rowReader(dataSource);
  }

  /**
   * The box office's data version now (with `stock` and `catalogue`, those versions too), and
   * with `horizon` the sync horizon; read it before the rows it stands for.
   */
  async of(
    boxOfficeId: number,
    {
      stock = false,
      catalogue = false,
      horizon = false,
    }: { stock?: boolean; catalogue?: boolean; horizon?: boolean } = {},
  ): Promise<DataVersionRead> {
    const { sql, params } = dataVersionStatement(
      this.databaseType,
      boxOfficeId,
      {
        stock,
        catalogue,
        horizon: horizon ? { lagSeconds: this.lagSeconds } : undefined,
      },
    );
    const [row] = await this.rows(sql, params);
    let version = `${Number(row.generation ?? 0)}.${Number(row.head ?? 0)}`;
    if (stock) version += `.${Number(row.stock ?? 0)}`;
    if (catalogue) version += `.${Number(row.catalogue ?? 0)}`;
    return horizon ? { version, horizon: Number(row.horizon) } : { version };
  }
}
