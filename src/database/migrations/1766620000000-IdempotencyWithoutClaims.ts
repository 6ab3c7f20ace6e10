import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Keys without claims (docs/API.md, "Retries: Idempotency-Key"; docs/OPERATIONS.md,
 * "Upgrade notes"). A write holds its key by a lock for as long as its transaction runs (an
 * advisory lock on PostgreSQL, the write lock on SQLite) and inserts the key's row with its
 * answer, in that transaction: a row is an answer. Releases before that claimed a key with a row
 * of its own first (`status` null, `claim_token`, `claimed_at`), finished later; this release
 * writes neither claim column and reads none.
 *
 * - `claim_token` and `claimed_at` become nullable, with no default, so the new keeps leave them
 *   out. They stay, for the release before this one: while a deploy rolls, its instances still
 *   write `claim_token` in every keep and read `claimed_at` of a row without an answer. A later
 *   release drops them.
 * - A claim row (`status` null) is not an answer. Those older than the 60 s lease the releases that
 *   wrote them gave a claim are of requests that never finished: deleted here. A younger one can
 *   only be of a request still running on an instance two releases old; this release answers its
 *   key 409 (in use) until retention removes the row, never replays it nor writes over it.
 *
 * On SQLite a column's NOT NULL goes only with the table: idempotency_keys (no triggers, one
 * index) is rebuilt with the same columns and rows. Foreign keys are off during migrations
 * (migrate.ts), so rebuilding cascades nothing.
 */

/** The lease of a claim, in seconds, as the releases that wrote claims had it. */
const CLAIM_LEASE_S = 60;

/** idempotency_keys on SQLite, its claim columns nullable or, as before this, NOT NULL. */
const sqliteKeys = (table: string, claims: 'nullable' | 'required') => {
  const notNull = claims === 'required' ? ' NOT NULL' : '';
  return `CREATE TABLE ${table} (
  api_key_id integer NOT NULL,
  idempotency_key varchar(255) NOT NULL,
  request_hash varchar(64) NOT NULL,
  claim_token varchar(32)${notNull},
  claimed_at bigint${notNull},
  created_at bigint NOT NULL,
  status integer,
  response_headers text,
  response_body text,
  CONSTRAINT "PK_idempotency_keys" PRIMARY KEY (api_key_id, idempotency_key),
  CONSTRAINT "FK_idempotency_keys_api_key" FOREIGN KEY (api_key_id) REFERENCES api_keys (id) ON DELETE CASCADE
)`;
};

const COLUMNS = `api_key_id, idempotency_key, request_hash, claim_token, claimed_at, created_at,
  status, response_headers, response_body`;

async function rebuildSqliteKeys(
  queryRunner: QueryRunner,
  claims: 'nullable' | 'required',
): Promise<void> {
  await queryRunner.query(sqliteKeys('temporary_idempotency_keys', claims));
  await queryRunner.query(
    `INSERT INTO temporary_idempotency_keys (${COLUMNS}) SELECT ${COLUMNS} FROM idempotency_keys`,
  );
  await queryRunner.query('DROP TABLE idempotency_keys');
  await queryRunner.query(
    'ALTER TABLE temporary_idempotency_keys RENAME TO idempotency_keys',
  );
  await queryRunner.query(
    'CREATE INDEX "IDX_idempotency_keys_created" ON idempotency_keys (created_at)',
  );
}

const isPostgres = (queryRunner: QueryRunner) =>
  queryRunner.connection.options.type === 'postgres';

export class IdempotencyWithoutClaims1766620000000 implements MigrationInterface {
  name = 'IdempotencyWithoutClaims1766620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const now = isPostgres(queryRunner)
      ? 'floor(extract(epoch FROM clock_timestamp()))::bigint'
      : 'unixepoch()';
    await queryRunner.query(
      `DELETE FROM idempotency_keys
        WHERE status IS NULL AND claimed_at <= ${now} - ${CLAIM_LEASE_S}`,
    );
    if (isPostgres(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE idempotency_keys
           ALTER COLUMN claim_token DROP NOT NULL,
           ALTER COLUMN claimed_at DROP NOT NULL`,
      );
    } else {
      await rebuildSqliteKeys(queryRunner, 'nullable');
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The earlier release reads a row's claim only when it has no answer, which a row of this
    // release always has: any token, and the row's own time, stand for the claim it never made.
    const token = isPostgres(queryRunner)
      ? 'md5(random()::text)'
      : 'lower(hex(randomblob(16)))';
    await queryRunner.query(
      `UPDATE idempotency_keys
          SET claim_token = coalesce(claim_token, ${token}),
              claimed_at = coalesce(claimed_at, created_at)
        WHERE claim_token IS NULL OR claimed_at IS NULL`,
    );
    if (isPostgres(queryRunner)) {
      await queryRunner.query(
        `ALTER TABLE idempotency_keys
           ALTER COLUMN claim_token SET NOT NULL,
           ALTER COLUMN claimed_at SET NOT NULL`,
      );
    } else {
      await rebuildSqliteKeys(queryRunner, 'required');
    }
  }
}
