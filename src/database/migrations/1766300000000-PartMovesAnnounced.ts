import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A part moved to another parent is a change of both parents (docs/API.md, "Change entries"):
 * a line item given another order, a ticket type, group or payment method given another event,
 * a series template's type, group or payment method given another series. Until now only the
 * parent it moved to had its `*.UPDATED` (and, for an order, its `updated_at`), so a client that
 * re-reads the parents the feed or the sync recipe names kept the part under its old parent for
 * good. The triggers added here announce the parent it left: its `*.UPDATED`, in its own box
 * office, and for an order its `updated_at` moved to the stamp, as an issued ticket moved to
 * another order already did.
 *
 * Triggers of their own, beside each table's sync trigger (which announces the new parent and
 * is left as it is), that fire only when the link changes. Written literally for each database.
 */

/** Each part table: its link column, the parent table, and the parent's entry type. */
const PARTS = [
  ['line_items', 'order_id', 'orders', 'ORDER.UPDATED'],
  ['ticket_types', 'event_id', 'events', 'EVENT.UPDATED'],
  ['ticket_groups', 'event_id', 'events', 'EVENT.UPDATED'],
  ['event_payment_methods', 'event_id', 'events', 'EVENT.UPDATED'],
  [
    'event_series_ticket_types',
    'event_series_id',
    'event_series',
    'EVENT_SERIES.UPDATED',
  ],
  [
    'event_series_ticket_groups',
    'event_series_id',
    'event_series',
    'EVENT_SERIES.UPDATED',
  ],
  [
    'event_series_payment_methods',
    'event_series_id',
    'event_series',
    'EVENT_SERIES.UPDATED',
  ],
] as const;

export class PartMovesAnnounced1766300000000 implements MigrationInterface {
  name = 'PartMovesAnnounced1766300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      // TG_ARGV: the parent table, its entry type, the part's link column.
      await queryRunner.query(
        `CREATE FUNCTION part_moved() RETURNS trigger LANGUAGE plpgsql AS $$
           DECLARE
             parent integer := (to_jsonb(OLD) ->> TG_ARGV[2])::integer;
             office integer;
             stamp bigint;
           BEGIN
             IF sync_importing() THEN RETURN NULL; END IF;
             EXECUTE format('SELECT box_office_id FROM %I WHERE id = $1', TG_ARGV[0])
               INTO office USING parent;
             IF office IS NULL THEN RETURN NULL; END IF;
             PERFORM record_change(office, TG_ARGV[1], parent);
             IF TG_ARGV[0] = 'orders' THEN
               stamp := sync_stamp(office);
               UPDATE orders SET updated_at = stamp
                WHERE id = parent AND (updated_at < stamp
                  OR updated_at > floor(extract(epoch FROM clock_timestamp()))::bigint);
             END IF;
             RETURN NULL;
           END
         $$`,
      );
      for (const [table, link, parent, entry] of PARTS) {
        await queryRunner.query(
          `CREATE TRIGGER trg_${table}_moved
             AFTER UPDATE OF ${link} ON ${table}
             FOR EACH ROW WHEN (OLD.${link} IS DISTINCT FROM NEW.${link})
             EXECUTE FUNCTION part_moved('${parent}', '${entry}', '${link}')`,
        );
      }
      return;
    }
    for (const [table, link, parent, entry] of PARTS) {
      const office = `(SELECT box_office_id FROM ${parent} WHERE id = OLD.${link})`;
      const stampOrder =
        parent === 'orders'
          ? `
             UPDATE orders SET updated_at = unixepoch()
               WHERE id = OLD.${link} AND updated_at IS NOT unixepoch();`
          : '';
      await queryRunner.query(
        `CREATE TRIGGER trg_${table}_moved AFTER UPDATE OF ${link} ON ${table}
           WHEN OLD.${link} IS NOT NEW.${link} AND NOT EXISTS (SELECT 1 FROM sync_import)
         BEGIN
           INSERT INTO change_heads (box_office_id, last_id)
             SELECT ${office}, 1 WHERE ${office} IS NOT NULL
             ON CONFLICT (box_office_id) DO UPDATE SET last_id = last_id + 1;
           INSERT INTO changes (box_office_id, id, type, resource_id, created_at)
             SELECT ${office},
                    (SELECT last_id FROM change_heads WHERE box_office_id = ${office}),
                    '${entry}', OLD.${link}, unixepoch()
              WHERE ${office} IS NOT NULL;${stampOrder}
         END`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    for (const [table] of PARTS) {
      await queryRunner.query(
        postgres
          ? `DROP TRIGGER trg_${table}_moved ON ${table}`
          : `DROP TRIGGER trg_${table}_moved`,
      );
    }
    if (postgres) await queryRunner.query('DROP FUNCTION part_moved()');
  }
}
