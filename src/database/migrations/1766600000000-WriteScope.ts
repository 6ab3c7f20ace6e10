import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The key scope `write` (docs/API.md, "Key scopes"): `read` ⊂ `check_in` ⊂ `write`, where `write`
 * also issues and voids tickets. `api_keys.scope`'s CHECK allows it; every existing key keeps its
 * scope, and so exactly its rights. The demo key of box office 1, `sk_demo_boxoffice_1` (found by
 * its hash, present only in demo data), becomes `write`, as a freshly seeded demo database has it.
 *
 * On SQLite the CHECK is the column's own and can change only with the table: api_keys is
 * rebuilt as it was (it has no triggers; its two indexes are made again), foreign keys being off
 * during migrations (migrate.ts), so the keys' idempotency rows are untouched.
 */

/** SHA-256 of `sk_demo_boxoffice_1`. */
const DEMO_WRITE_KEY_HASH =
  'd06a5967d68017df0efe48b0b388f9c0d0bbdcc39da9b512151f5e812f5b5a63';

const COLUMNS =
  '"id", "box_office_id", "name", "key_hash", "key_prefix", "created_at", "revoked_at", scope';

/** api_keys on SQLite, with the scopes its CHECK allows. */
const sqliteApiKeys = (
  table: string,
  scopes: string,
) => `CREATE TABLE "${table}" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "box_office_id" integer NOT NULL,
  "name" varchar(200),
  "key_hash" varchar(64) NOT NULL,
  "key_prefix" varchar(16) NOT NULL,
  "created_at" bigint NOT NULL,
  "revoked_at" bigint,
  scope varchar(16) NOT NULL DEFAULT 'read' CONSTRAINT "CHK_api_keys_scope" CHECK (scope IN (${scopes})),
  CONSTRAINT "FK_f8f45492d6a34760fc05c3c9b39" FOREIGN KEY ("box_office_id") REFERENCES "box_offices" ("id") ON DELETE CASCADE
)`;

async function allowScopes(
  queryRunner: QueryRunner,
  scopes: string,
): Promise<void> {
  if (queryRunner.connection.options.type === 'postgres') {
    await queryRunner.query(
      'ALTER TABLE api_keys DROP CONSTRAINT "CHK_api_keys_scope"',
    );
    await queryRunner.query(
      `ALTER TABLE api_keys ADD CONSTRAINT "CHK_api_keys_scope" CHECK (scope IN (${scopes}))`,
    );
    return;
  }
  await queryRunner.query(sqliteApiKeys('temporary_api_keys', scopes));
  await queryRunner.query(
    `INSERT INTO "temporary_api_keys" (${COLUMNS}) SELECT ${COLUMNS} FROM "api_keys"`,
  );
  await queryRunner.query('DROP TABLE "api_keys"');
  await queryRunner.query(
    'ALTER TABLE "temporary_api_keys" RENAME TO "api_keys"',
  );
  // In the order SQLite's catalog had them, which TypeORM's later rebuilds of the table follow.
  await queryRunner.query(
    'CREATE UNIQUE INDEX "IDX_api_keys_key_hash" ON "api_keys" ("key_hash")',
  );
  await queryRunner.query(
    'CREATE INDEX "IDX_api_keys_box_office" ON "api_keys" ("box_office_id")',
  );
}

export class WriteScope1766600000000 implements MigrationInterface {
  name = 'WriteScope1766600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await allowScopes(queryRunner, "'read', 'check_in', 'write'");
    await queryRunner.query(
      `UPDATE api_keys SET scope = 'write' WHERE key_hash = '${DEMO_WRITE_KEY_HASH}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // A write key keeps what it had before writes existed: scans.
    await queryRunner.query(
      "UPDATE api_keys SET scope = 'check_in' WHERE scope = 'write'",
    );
    await allowScopes(queryRunner, "'read', 'check_in'");
  }
}
