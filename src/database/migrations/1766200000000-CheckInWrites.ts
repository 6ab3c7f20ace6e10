import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What recording scans over HTTP needs (docs/API.md, "POST /v1/check_ins"):
 *
 * - `api_keys.scope`: `read` (what every key could do so far) or `check_in` (may also record
 *   scans). Existing keys become `read` and keep reading exactly as before; the demo key of box
 *   office 1, `sk_demo_boxoffice_1` (found by its hash, present only in demo data), becomes
 *   `check_in`, as a freshly seeded demo database has it.
 * - `idempotency_keys`: the answer to the first request made with an `Idempotency-Key`, per API
 *   key, so that a retry on any instance gets the same answer and writes nothing. `status` is
 *   null while the first request runs (since `claimed_at`, under `claim_token`).
 *
 * Written literally for each database; plain ALTER TABLE, not TypeORM's addColumn, which on
 * SQLite rebuilds the table.
 */

/** SHA-256 of `sk_demo_boxoffice_1`: the demo key the demo data gives scope check_in. */
const DEMO_CHECK_IN_KEY_HASH =
  'd06a5967d68017df0efe48b0b388f9c0d0bbdcc39da9b512151f5e812f5b5a63';

export class CheckInWrites1766200000000 implements MigrationInterface {
  name = 'CheckInWrites1766200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE api_keys ADD COLUMN scope varchar(16) NOT NULL DEFAULT 'read'
         CONSTRAINT "CHK_api_keys_scope" CHECK (scope IN ('read', 'check_in'))`,
    );
    await queryRunner.query(
      `UPDATE api_keys SET scope = 'check_in' WHERE key_hash = '${DEMO_CHECK_IN_KEY_HASH}'`,
    );
    await queryRunner.query(
      `CREATE TABLE idempotency_keys (
         api_key_id integer NOT NULL,
         idempotency_key varchar(255) NOT NULL,
         request_hash varchar(64) NOT NULL,
         claim_token varchar(32) NOT NULL,
         claimed_at bigint NOT NULL,
         created_at bigint NOT NULL,
         status integer,
         response_headers text,
         response_body text,
         CONSTRAINT "PK_idempotency_keys" PRIMARY KEY (api_key_id, idempotency_key),
         CONSTRAINT "FK_idempotency_keys_api_key" FOREIGN KEY (api_key_id)
           REFERENCES api_keys (id) ON DELETE CASCADE
       )`,
    );
    // Retention removes the rows past 24 hours by their age.
    await queryRunner.query(
      'CREATE INDEX "IDX_idempotency_keys_created" ON idempotency_keys (created_at)',
    );
    await queryRunner.query('ANALYZE idempotency_keys');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE idempotency_keys');
    // The CHECK is the column's own, so it goes with the column on both databases.
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN scope');
  }
}
