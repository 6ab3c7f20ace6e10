import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/API.md, "Webhooks"): the change feed pushed to each box office's endpoints.
 *
 * - `webhook_endpoints`: an endpoint as the API shows it (`enabled_events` as a JSON array), its
 *   signing secret (`secret`: encrypted with WEBHOOK_SECRET_KEY when set, docs/OPERATIONS.md,
 *   "Webhooks"), and its delivery state: `delivered_through`, the feed position up to which every
 *   event was delivered (or filtered out); `failures`, the failed attempts of the next event, and
 *   `failing_since` (Unix seconds), when the first of them was made; `next_attempt_at` (Unix
 *   milliseconds) before which it is not tried again; the lease of the instance delivering to it
 *   (`lease_owner` until `lease_until`, Unix milliseconds), so that one instance at a time sends
 *   to an endpoint; and `state_version`, moved by the API's changes of that state (a replay, a
 *   new URL, enabling), so that a delivery finishing after one does not undo it.
 * - `webhook_deliveries`: every attempt, for `GET /v1/webhook_endpoints/{id}/deliveries`, kept 30
 *   days. `change_id` is the event's feed number, which is also its `wh_` id.
 *
 * Written literally for each database.
 */
export class WebhookEndpoints1766700000000 implements MigrationInterface {
  name = 'WebhookEndpoints1766700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const key =
      queryRunner.connection.options.type === 'postgres'
        ? 'serial PRIMARY KEY'
        : 'integer PRIMARY KEY AUTOINCREMENT';
    await queryRunner.query(
      `CREATE TABLE webhook_endpoints (
         id ${key},
         box_office_id integer NOT NULL
           CONSTRAINT "FK_webhook_endpoints_box_office" REFERENCES box_offices (id) ON DELETE CASCADE,
         url varchar(2048) NOT NULL,
         description varchar(500),
         enabled_events text NOT NULL,
         status varchar(16) NOT NULL
           CONSTRAINT "CHK_webhook_endpoints_status" CHECK (status IN ('enabled', 'disabled')),
         secret text NOT NULL,
         created_at bigint NOT NULL,
         updated_at bigint NOT NULL,
         delivered_through bigint NOT NULL,
         failures integer NOT NULL DEFAULT 0,
         failing_since bigint,
         next_attempt_at bigint NOT NULL DEFAULT 0,
         lease_owner varchar(64),
         lease_until bigint NOT NULL DEFAULT 0,
         state_version integer NOT NULL DEFAULT 0
       )`,
    );
    // The list, newest first; the workers' search for an endpoint that is due.
    await queryRunner.query(
      'CREATE INDEX "IDX_webhook_endpoints_list" ON webhook_endpoints (box_office_id, created_at, id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_webhook_endpoints_due" ON webhook_endpoints (status, next_attempt_at)',
    );
    await queryRunner.query(
      `CREATE TABLE webhook_deliveries (
         id ${key},
         endpoint_id integer NOT NULL
           CONSTRAINT "FK_webhook_deliveries_endpoint" REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
         box_office_id integer NOT NULL,
         change_id bigint NOT NULL,
         event varchar(32) NOT NULL,
         status_code integer,
         error varchar(255),
         duration_ms integer NOT NULL,
         attempted_at bigint NOT NULL
       )`,
    );
    // An endpoint's attempts, newest first; retention removes the old ones by their age.
    await queryRunner.query(
      'CREATE INDEX "IDX_webhook_deliveries_endpoint" ON webhook_deliveries (endpoint_id, id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_webhook_deliveries_attempted" ON webhook_deliveries (attempted_at)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE webhook_deliveries');
    await queryRunner.query('DROP TABLE webhook_endpoints');
  }
}
