import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: the counts the triggers keep are written as deltas and folded into their rows off
 * the request path (docs/DESIGN.md, "Counts without a hot row"; issue #48, part 2).
 *
 * Until now a completed order's first statement updated its event's row (completed orders,
 * revenue), the box office's hour and day rollup rows (orders, revenue), and its tickets the
 * event's row again (valid tickets), the ticket type's row (`quantity_issued`) and the hour and
 * day rows of tickets: rows every sale of the event, the type, the hour or the day must update,
 * each locked until the transaction ended. Sixteen writers of one box office sold one at a time
 * (bench/notes/2026-12-07-writes-without-hot-rows.md), and a refund, which holds its order and
 * then needs the event's row, deadlocked with an event edit, which holds the event's row and then
 * updates its orders.
 *
 * Now one statement trigger per table and operation inserts what the statement changed into
 * three tables of deltas: `event_count_deltas` (an event's completed orders, valid tickets and
 * revenue), `ticket_type_count_deltas` (a type's issued tickets) and `activity_deltas` (a box
 * office's orders, revenue by currency and tickets of an hour; its day is the hour / 24). A delta
 * is a row of the writing transaction's own: no writer waits for another. `fold_counts(office)`,
 * run by every instance's sweep beside the change assigner, moves the deltas its snapshot sees
 * into the rows they count, in one transaction, under an advisory lock of the box office (one
 * folder at a time), skipping an event or ticket type whose row another transaction holds (an
 * edit, an issue at capacity): those wait for a later pass. Readers read a count as its row plus
 * its deltas, in one statement (src/database/pending-counts.ts): every snapshot, before or after
 * a fold, gives the same exact number.
 *
 * The counts in the rows are kept: an upgraded database's deltas start empty. SQLite keeps its
 * triggers: its writers take turns for the whole database anyway.
 */

/** What the advisory lock of a box office's folder is keyed by: (this << 32) + box office. */
const FOLDER_LOCK_CLASS = 20251207;

/** A statement's rows, signed: +1 those it wrote (`new_rows`), −1 those it replaced (`old_rows`). */
const SIGNED_ROWS = {
  insert: 'SELECT 1 AS sign, r.* FROM new_rows r',
  update:
    'SELECT -1 AS sign, r.* FROM old_rows r UNION ALL SELECT 1 AS sign, r.* FROM new_rows r',
  delete: 'SELECT -1 AS sign, r.* FROM old_rows r',
} as const;
type Operation = keyof typeof SIGNED_ROWS;
const OPERATIONS: readonly Operation[] = ['insert', 'update', 'delete'];

/** What a statement on orders changed in the counts of completed orders and their revenue. */
const orderDeltas = (
  op: Operation,
) => `CREATE FUNCTION orders_count_deltas_on_${op}()
RETURNS trigger LANGUAGE plpgsql AS $$
  -- Deltas of the event's and the hour's completed orders and revenue (migration
  -- CountsWithoutHotRows); an order changed in neither (its time, its buyer) adds nothing.
  BEGIN
    WITH s AS MATERIALIZED (
      SELECT r.box_office_id, r.event_id, r.currency, r.created_at / 3600 AS hour,
             sum(r.sign) AS orders, sum(r.sign * (r.total - r.refund_amount)) AS revenue
        FROM (${SIGNED_ROWS[op]}) r
       WHERE r.status = 'completed'
       GROUP BY r.box_office_id, r.event_id, r.currency, r.created_at / 3600),
    e AS (
      INSERT INTO event_count_deltas (box_office_id, event_id, completed_orders_count, completed_revenue)
      SELECT box_office_id, event_id, sum(orders), sum(revenue) FROM s
       GROUP BY box_office_id, event_id HAVING sum(orders) <> 0 OR sum(revenue) <> 0)
    INSERT INTO activity_deltas (box_office_id, hour, currency, completed_orders, revenue)
    SELECT box_office_id, hour, currency, orders, revenue FROM s
     WHERE orders <> 0 OR revenue <> 0;
    RETURN NULL;
  END $$`;

/** What a statement on issued_tickets changed in the counts of valid tickets. */
const ticketDeltas = (
  op: Operation,
) => `CREATE FUNCTION issued_tickets_count_deltas_on_${op}()
RETURNS trigger LANGUAGE plpgsql AS $$
  -- Deltas of the event's, the ticket type's and the hour's valid tickets (migration
  -- CountsWithoutHotRows); a ticket changed in none (a scan, its holder) adds nothing.
  BEGIN
    WITH s AS MATERIALIZED (
      SELECT r.box_office_id, r.event_id, r.ticket_type_id, r.created_at / 3600 AS hour,
             sum(r.sign) AS tickets
        FROM (${SIGNED_ROWS[op]}) r
       WHERE r.status = 'valid'
       GROUP BY r.box_office_id, r.event_id, r.ticket_type_id, r.created_at / 3600
      HAVING sum(r.sign) <> 0),
    e AS (
      INSERT INTO event_count_deltas (box_office_id, event_id, valid_tickets_count)
      SELECT box_office_id, event_id, sum(tickets) FROM s
       GROUP BY box_office_id, event_id HAVING sum(tickets) <> 0),
    t AS (
      INSERT INTO ticket_type_count_deltas (box_office_id, ticket_type_id, quantity_issued)
      SELECT box_office_id, ticket_type_id, sum(tickets) FROM s WHERE ticket_type_id IS NOT NULL
       GROUP BY box_office_id, ticket_type_id HAVING sum(tickets) <> 0)
    INSERT INTO activity_deltas (box_office_id, hour, valid_tickets)
    SELECT box_office_id, hour, sum(tickets) FROM s
     GROUP BY box_office_id, hour HAVING sum(tickets) <> 0;
    RETURN NULL;
  END $$`;

const transitionTables = (op: Operation) =>
  ({
    insert: 'REFERENCING NEW TABLE AS new_rows',
    update: 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows',
    delete: 'REFERENCING OLD TABLE AS old_rows',
  })[op];

const FOLD_COUNTS = `CREATE FUNCTION fold_counts(office integer) RETURNS integer
LANGUAGE plpgsql AS $$
  -- Moves the box office's deltas into the rows they count (migration CountsWithoutHotRows).
  -- One folder per box office at a time; an event or ticket type whose row another transaction
  -- holds is left for a later pass, so a fold never waits for a writer. Each statement takes its
  -- snapshot after the lock; the deltas it deletes are the ones it adds, and the fold commits
  -- whole, so a reader sees a count either in its deltas or in its row, never both or neither.
  DECLARE
    lock_key bigint := (${FOLDER_LOCK_CLASS}::bigint << 32) + office;
    n integer;
    folded integer := 0;
  BEGIN
    IF NOT pg_try_advisory_xact_lock(lock_key) THEN
      RETURN 0;
    END IF;
    WITH target AS (
      SELECT e.id FROM events e
       WHERE e.id IN (SELECT d.event_id FROM event_count_deltas d WHERE d.box_office_id = office)
         FOR NO KEY UPDATE OF e SKIP LOCKED),
    taken AS (
      DELETE FROM event_count_deltas d
       WHERE d.box_office_id = office
         AND (d.event_id IN (SELECT id FROM target)
              OR NOT EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id))
      RETURNING d.event_id, d.completed_orders_count, d.valid_tickets_count, d.completed_revenue)
    UPDATE events e
       SET completed_orders_count = e.completed_orders_count + s.orders,
           valid_tickets_count = e.valid_tickets_count + s.tickets,
           completed_revenue = e.completed_revenue + s.revenue
      FROM (SELECT event_id, sum(completed_orders_count) AS orders,
                   sum(valid_tickets_count) AS tickets, sum(completed_revenue) AS revenue
              FROM taken GROUP BY event_id) s
     WHERE e.id = s.event_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    folded := folded + n;
    WITH target AS (
      SELECT y.id FROM ticket_types y
       WHERE y.id IN (SELECT d.ticket_type_id FROM ticket_type_count_deltas d
                       WHERE d.box_office_id = office)
         FOR NO KEY UPDATE OF y SKIP LOCKED),
    taken AS (
      DELETE FROM ticket_type_count_deltas d
       WHERE d.box_office_id = office
         AND (d.ticket_type_id IN (SELECT id FROM target)
              OR NOT EXISTS (SELECT 1 FROM ticket_types y WHERE y.id = d.ticket_type_id))
      RETURNING d.ticket_type_id, d.quantity_issued)
    UPDATE ticket_types y SET quantity_issued = y.quantity_issued + s.issued
      FROM (SELECT ticket_type_id, sum(quantity_issued) AS issued FROM taken
             GROUP BY ticket_type_id) s
     WHERE y.id = s.ticket_type_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    folded := folded + n;
    -- The rollups are written by folds alone.
    WITH taken AS (
      DELETE FROM activity_deltas d WHERE d.box_office_id = office
      RETURNING d.hour, d.currency, d.completed_orders, d.revenue, d.valid_tickets),
    order_hour AS (
      INSERT INTO order_hours AS r (box_office_id, hour, completed_orders)
      SELECT office, hour, sum(completed_orders) FROM taken
       GROUP BY hour HAVING sum(completed_orders) <> 0
      ON CONFLICT (box_office_id, hour)
      DO UPDATE SET completed_orders = r.completed_orders + excluded.completed_orders),
    order_day AS (
      INSERT INTO order_days AS r (box_office_id, day, completed_orders)
      SELECT office, hour / 24, sum(completed_orders) FROM taken
       GROUP BY hour / 24 HAVING sum(completed_orders) <> 0
      ON CONFLICT (box_office_id, day)
      DO UPDATE SET completed_orders = r.completed_orders + excluded.completed_orders),
    revenue_hour AS (
      INSERT INTO revenue_hours AS r (box_office_id, currency, hour, revenue)
      SELECT office, currency, hour, sum(revenue) FROM taken WHERE currency IS NOT NULL
       GROUP BY currency, hour HAVING sum(revenue) <> 0
      ON CONFLICT (box_office_id, currency, hour)
      DO UPDATE SET revenue = r.revenue + excluded.revenue),
    revenue_day AS (
      INSERT INTO revenue_days AS r (box_office_id, currency, day, revenue)
      SELECT office, currency, hour / 24, sum(revenue) FROM taken WHERE currency IS NOT NULL
       GROUP BY currency, hour / 24 HAVING sum(revenue) <> 0
      ON CONFLICT (box_office_id, currency, day)
      DO UPDATE SET revenue = r.revenue + excluded.revenue),
    ticket_hour AS (
      INSERT INTO ticket_hours AS r (box_office_id, hour, valid_tickets)
      SELECT office, hour, sum(valid_tickets) FROM taken
       GROUP BY hour HAVING sum(valid_tickets) <> 0
      ON CONFLICT (box_office_id, hour)
      DO UPDATE SET valid_tickets = r.valid_tickets + excluded.valid_tickets),
    ticket_day AS (
      INSERT INTO ticket_days AS r (box_office_id, day, valid_tickets)
      SELECT office, hour / 24, sum(valid_tickets) FROM taken
       GROUP BY hour / 24 HAVING sum(valid_tickets) <> 0
      ON CONFLICT (box_office_id, day)
      DO UPDATE SET valid_tickets = r.valid_tickets + excluded.valid_tickets)
    SELECT count(*) INTO n FROM taken;
    RETURN folded + n;
  END $$`;

/**
 * The functions and triggers this migration replaces, as the migrations before it left them
 * (NetCounterUpdates, ActivityHours, ActivityDays), character for character (the schema
 * compares them): what `down` puts back.
 */
const FUNCTIONS_BEFORE = [
  `CREATE OR REPLACE FUNCTION public.issued_tickets_quantity_issued_on_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE ticket_types c SET quantity_issued = c.quantity_issued - s.n
         FROM (SELECT r.ticket_type_id AS id, sum(1) AS n FROM old_rows r
               WHERE r.status = 'valid' AND r.ticket_type_id IS NOT NULL GROUP BY r.ticket_type_id) s
        WHERE c.id = s.id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_quantity_issued_on_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE ticket_types c SET quantity_issued = c.quantity_issued + s.n
         FROM (SELECT r.ticket_type_id AS id, sum(1) AS n FROM new_rows r
               WHERE r.status = 'valid' AND r.ticket_type_id IS NOT NULL GROUP BY r.ticket_type_id) s
        WHERE c.id = s.id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_quantity_issued_on_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   BEGIN
     UPDATE ticket_types c SET quantity_issued = c.quantity_issued + d.n
       FROM (SELECT s.id, sum(s.n) AS n
               FROM (SELECT r.ticket_type_id AS id, -sum(1) AS n FROM old_rows r
      WHERE r.status = 'valid' AND r.ticket_type_id IS NOT NULL GROUP BY r.ticket_type_id UNION ALL SELECT r.ticket_type_id AS id, sum(1) AS n FROM new_rows r
      WHERE r.status = 'valid' AND r.ticket_type_id IS NOT NULL GROUP BY r.ticket_type_id) s
              GROUP BY s.id HAVING sum(s.n) <> 0) d
      WHERE c.id = d.id;
     RETURN NULL;
   END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_ticket_days()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'valid' THEN
        UPDATE ticket_days SET valid_tickets = valid_tickets - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'valid' THEN
        INSERT INTO ticket_days (box_office_id, day, valid_tickets)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET valid_tickets = ticket_days.valid_tickets + excluded.valid_tickets;
      END IF;
      RETURN NULL;
    END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_ticket_hours()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'valid' THEN
        UPDATE ticket_hours SET valid_tickets = valid_tickets - (1)
      WHERE box_office_id = OLD.box_office_id AND hour = OLD.created_at / 3600;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'valid' THEN
        INSERT INTO ticket_hours (box_office_id, hour, valid_tickets)
      VALUES (NEW.box_office_id, NEW.created_at / 3600, 1)
      ON CONFLICT (box_office_id, hour) DO UPDATE SET valid_tickets = ticket_hours.valid_tickets + excluded.valid_tickets;
      END IF;
      RETURN NULL;
    END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_valid_tickets_count_on_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE events e SET valid_tickets_count = e.valid_tickets_count - c.n
         FROM (SELECT event_id, count(*) AS n FROM old_rows
               WHERE status = 'valid' GROUP BY event_id) c
        WHERE e.id = c.event_id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_valid_tickets_count_on_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE events e SET valid_tickets_count = e.valid_tickets_count + c.n
         FROM (SELECT event_id, count(*) AS n FROM new_rows
               WHERE status = 'valid' GROUP BY event_id) c
        WHERE e.id = c.event_id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.issued_tickets_valid_tickets_count_on_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   BEGIN
     UPDATE events c SET valid_tickets_count = c.valid_tickets_count + d.n
       FROM (SELECT s.id, sum(s.n) AS n
               FROM (SELECT r.event_id AS id, -sum(1) AS n FROM old_rows r
      WHERE r.status = 'valid' AND r.event_id IS NOT NULL GROUP BY r.event_id UNION ALL SELECT r.event_id AS id, sum(1) AS n FROM new_rows r
      WHERE r.status = 'valid' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
              GROUP BY s.id HAVING sum(s.n) <> 0) d
      WHERE c.id = d.id;
     RETURN NULL;
   END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_completed_orders_count_on_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE events e SET completed_orders_count = e.completed_orders_count - c.n
         FROM (SELECT event_id, count(*) AS n FROM old_rows
               WHERE status = 'completed' GROUP BY event_id) c
        WHERE e.id = c.event_id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_completed_orders_count_on_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE events e SET completed_orders_count = e.completed_orders_count + c.n
         FROM (SELECT event_id, count(*) AS n FROM new_rows
               WHERE status = 'completed' GROUP BY event_id) c
        WHERE e.id = c.event_id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_completed_orders_count_on_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   BEGIN
     UPDATE events c SET completed_orders_count = c.completed_orders_count + d.n
       FROM (SELECT s.id, sum(s.n) AS n
               FROM (SELECT r.event_id AS id, -sum(1) AS n FROM old_rows r
      WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id UNION ALL SELECT r.event_id AS id, sum(1) AS n FROM new_rows r
      WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
              GROUP BY s.id HAVING sum(s.n) <> 0) d
      WHERE c.id = d.id;
     RETURN NULL;
   END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_completed_revenue_on_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE events c SET completed_revenue = c.completed_revenue - s.n
         FROM (SELECT r.event_id AS id, sum((r.total - r.refund_amount)) AS n FROM old_rows r
               WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
        WHERE c.id = s.id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_completed_revenue_on_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN UPDATE events c SET completed_revenue = c.completed_revenue + s.n
         FROM (SELECT r.event_id AS id, sum((r.total - r.refund_amount)) AS n FROM new_rows r
               WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
        WHERE c.id = s.id; RETURN NULL; END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_completed_revenue_on_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   BEGIN
     UPDATE events c SET completed_revenue = c.completed_revenue + d.n
       FROM (SELECT s.id, sum(s.n) AS n
               FROM (SELECT r.event_id AS id, -sum((r.total - r.refund_amount)) AS n FROM old_rows r
      WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id UNION ALL SELECT r.event_id AS id, sum((r.total - r.refund_amount)) AS n FROM new_rows r
      WHERE r.status = 'completed' AND r.event_id IS NOT NULL GROUP BY r.event_id) s
              GROUP BY s.id HAVING sum(s.n) <> 0) d
      WHERE c.id = d.id;
     RETURN NULL;
   END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_order_days()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE order_days SET completed_orders = completed_orders - (1)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        INSERT INTO order_days (box_office_id, day, completed_orders)
      VALUES (NEW.box_office_id, NEW.created_at / 86400, 1)
      ON CONFLICT (box_office_id, day) DO UPDATE SET completed_orders = order_days.completed_orders + excluded.completed_orders;
      END IF;
      RETURN NULL;
    END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_order_hours()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE order_hours SET completed_orders = completed_orders - (1)
      WHERE box_office_id = OLD.box_office_id AND hour = OLD.created_at / 3600;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        INSERT INTO order_hours (box_office_id, hour, completed_orders)
      VALUES (NEW.box_office_id, NEW.created_at / 3600, 1)
      ON CONFLICT (box_office_id, hour) DO UPDATE SET completed_orders = order_hours.completed_orders + excluded.completed_orders;
      END IF;
      RETURN NULL;
    END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_revenue_days()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE revenue_days SET revenue = revenue - (OLD.total - OLD.refund_amount)
      WHERE box_office_id = OLD.box_office_id AND day = OLD.created_at / 86400 AND currency = OLD.currency;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        INSERT INTO revenue_days (box_office_id, currency, day, revenue)
      VALUES (NEW.box_office_id, NEW.currency, NEW.created_at / 86400, NEW.total - NEW.refund_amount)
      ON CONFLICT (box_office_id, currency, day) DO UPDATE SET revenue = revenue_days.revenue + excluded.revenue;
      END IF;
      RETURN NULL;
    END $function$
`,
  `CREATE OR REPLACE FUNCTION public.orders_revenue_hours()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'completed' THEN
        UPDATE revenue_hours SET revenue = revenue - (OLD.total - OLD.refund_amount)
      WHERE box_office_id = OLD.box_office_id AND hour = OLD.created_at / 3600 AND currency = OLD.currency;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'completed' THEN
        INSERT INTO revenue_hours (box_office_id, currency, hour, revenue)
      VALUES (NEW.box_office_id, NEW.currency, NEW.created_at / 3600, NEW.total - NEW.refund_amount)
      ON CONFLICT (box_office_id, currency, hour) DO UPDATE SET revenue = revenue_hours.revenue + excluded.revenue;
      END IF;
      RETURN NULL;
    END $function$
`,
];

/** [trigger, table, definition] */
const TRIGGERS_BEFORE: readonly (readonly [string, string, string])[] = [
  [
    'trg_issued_tickets_quantity_issued_delete',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_quantity_issued_delete AFTER DELETE ON public.issued_tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_quantity_issued_on_delete()`,
  ],
  [
    'trg_issued_tickets_quantity_issued_insert',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_quantity_issued_insert AFTER INSERT ON public.issued_tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_quantity_issued_on_insert()`,
  ],
  [
    'trg_issued_tickets_quantity_issued_update',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_quantity_issued_update AFTER UPDATE ON public.issued_tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_quantity_issued_on_update()`,
  ],
  [
    'trg_issued_tickets_ticket_days_delete',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_ticket_days_delete AFTER DELETE ON public.issued_tickets FOR EACH ROW WHEN (((old.status)::text = 'valid'::text)) EXECUTE FUNCTION issued_tickets_ticket_days()`,
  ],
  [
    'trg_issued_tickets_ticket_days_insert',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_ticket_days_insert AFTER INSERT ON public.issued_tickets FOR EACH ROW WHEN (((new.status)::text = 'valid'::text)) EXECUTE FUNCTION issued_tickets_ticket_days()`,
  ],
  [
    'trg_issued_tickets_ticket_days_update',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_ticket_days_update AFTER UPDATE OF status, created_at, box_office_id ON public.issued_tickets FOR EACH ROW WHEN (((((old.status)::text = 'valid'::text) OR ((new.status)::text = 'valid'::text)) AND (((old.status)::text IS DISTINCT FROM (new.status)::text) OR (old.created_at IS DISTINCT FROM new.created_at) OR (old.box_office_id IS DISTINCT FROM new.box_office_id)))) EXECUTE FUNCTION issued_tickets_ticket_days()`,
  ],
  [
    'trg_issued_tickets_ticket_hours_delete',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_ticket_hours_delete AFTER DELETE ON public.issued_tickets FOR EACH ROW WHEN (((old.status)::text = 'valid'::text)) EXECUTE FUNCTION issued_tickets_ticket_hours()`,
  ],
  [
    'trg_issued_tickets_ticket_hours_insert',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_ticket_hours_insert AFTER INSERT ON public.issued_tickets FOR EACH ROW WHEN (((new.status)::text = 'valid'::text)) EXECUTE FUNCTION issued_tickets_ticket_hours()`,
  ],
  [
    'trg_issued_tickets_ticket_hours_update',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_ticket_hours_update AFTER UPDATE OF status, created_at, box_office_id ON public.issued_tickets FOR EACH ROW WHEN (((((old.status)::text = 'valid'::text) OR ((new.status)::text = 'valid'::text)) AND (((old.status)::text IS DISTINCT FROM (new.status)::text) OR (old.created_at IS DISTINCT FROM new.created_at) OR (old.box_office_id IS DISTINCT FROM new.box_office_id)))) EXECUTE FUNCTION issued_tickets_ticket_hours()`,
  ],
  [
    'trg_issued_tickets_valid_tickets_count_delete',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_valid_tickets_count_delete AFTER DELETE ON public.issued_tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_valid_tickets_count_on_delete()`,
  ],
  [
    'trg_issued_tickets_valid_tickets_count_insert',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_valid_tickets_count_insert AFTER INSERT ON public.issued_tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_valid_tickets_count_on_insert()`,
  ],
  [
    'trg_issued_tickets_valid_tickets_count_update',
    'issued_tickets',
    `CREATE TRIGGER trg_issued_tickets_valid_tickets_count_update AFTER UPDATE ON public.issued_tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION issued_tickets_valid_tickets_count_on_update()`,
  ],
  [
    'trg_orders_completed_orders_count_delete',
    'orders',
    `CREATE TRIGGER trg_orders_completed_orders_count_delete AFTER DELETE ON public.orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_completed_orders_count_on_delete()`,
  ],
  [
    'trg_orders_completed_orders_count_insert',
    'orders',
    `CREATE TRIGGER trg_orders_completed_orders_count_insert AFTER INSERT ON public.orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_completed_orders_count_on_insert()`,
  ],
  [
    'trg_orders_completed_orders_count_update',
    'orders',
    `CREATE TRIGGER trg_orders_completed_orders_count_update AFTER UPDATE ON public.orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_completed_orders_count_on_update()`,
  ],
  [
    'trg_orders_completed_revenue_delete',
    'orders',
    `CREATE TRIGGER trg_orders_completed_revenue_delete AFTER DELETE ON public.orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_completed_revenue_on_delete()`,
  ],
  [
    'trg_orders_completed_revenue_insert',
    'orders',
    `CREATE TRIGGER trg_orders_completed_revenue_insert AFTER INSERT ON public.orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_completed_revenue_on_insert()`,
  ],
  [
    'trg_orders_completed_revenue_update',
    'orders',
    `CREATE TRIGGER trg_orders_completed_revenue_update AFTER UPDATE ON public.orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION orders_completed_revenue_on_update()`,
  ],
  [
    'trg_orders_order_days_delete',
    'orders',
    `CREATE TRIGGER trg_orders_order_days_delete AFTER DELETE ON public.orders FOR EACH ROW WHEN (((old.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_order_days()`,
  ],
  [
    'trg_orders_order_days_insert',
    'orders',
    `CREATE TRIGGER trg_orders_order_days_insert AFTER INSERT ON public.orders FOR EACH ROW WHEN (((new.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_order_days()`,
  ],
  [
    'trg_orders_order_days_update',
    'orders',
    `CREATE TRIGGER trg_orders_order_days_update AFTER UPDATE OF status, created_at, box_office_id ON public.orders FOR EACH ROW WHEN (((((old.status)::text = 'completed'::text) OR ((new.status)::text = 'completed'::text)) AND (((old.status)::text IS DISTINCT FROM (new.status)::text) OR (old.created_at IS DISTINCT FROM new.created_at) OR (old.box_office_id IS DISTINCT FROM new.box_office_id)))) EXECUTE FUNCTION orders_order_days()`,
  ],
  [
    'trg_orders_order_hours_delete',
    'orders',
    `CREATE TRIGGER trg_orders_order_hours_delete AFTER DELETE ON public.orders FOR EACH ROW WHEN (((old.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_order_hours()`,
  ],
  [
    'trg_orders_order_hours_insert',
    'orders',
    `CREATE TRIGGER trg_orders_order_hours_insert AFTER INSERT ON public.orders FOR EACH ROW WHEN (((new.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_order_hours()`,
  ],
  [
    'trg_orders_order_hours_update',
    'orders',
    `CREATE TRIGGER trg_orders_order_hours_update AFTER UPDATE OF status, created_at, box_office_id ON public.orders FOR EACH ROW WHEN (((((old.status)::text = 'completed'::text) OR ((new.status)::text = 'completed'::text)) AND (((old.status)::text IS DISTINCT FROM (new.status)::text) OR (old.created_at IS DISTINCT FROM new.created_at) OR (old.box_office_id IS DISTINCT FROM new.box_office_id)))) EXECUTE FUNCTION orders_order_hours()`,
  ],
  [
    'trg_orders_revenue_days_delete',
    'orders',
    `CREATE TRIGGER trg_orders_revenue_days_delete AFTER DELETE ON public.orders FOR EACH ROW WHEN (((old.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_revenue_days()`,
  ],
  [
    'trg_orders_revenue_days_insert',
    'orders',
    `CREATE TRIGGER trg_orders_revenue_days_insert AFTER INSERT ON public.orders FOR EACH ROW WHEN (((new.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_revenue_days()`,
  ],
  [
    'trg_orders_revenue_days_update',
    'orders',
    `CREATE TRIGGER trg_orders_revenue_days_update AFTER UPDATE OF status, created_at, total, refund_amount, currency, box_office_id ON public.orders FOR EACH ROW WHEN (((((old.status)::text = 'completed'::text) OR ((new.status)::text = 'completed'::text)) AND (((old.status)::text IS DISTINCT FROM (new.status)::text) OR (old.created_at IS DISTINCT FROM new.created_at) OR (old.total IS DISTINCT FROM new.total) OR (old.refund_amount IS DISTINCT FROM new.refund_amount) OR ((old.currency)::text IS DISTINCT FROM (new.currency)::text) OR (old.box_office_id IS DISTINCT FROM new.box_office_id)))) EXECUTE FUNCTION orders_revenue_days()`,
  ],
  [
    'trg_orders_revenue_hours_delete',
    'orders',
    `CREATE TRIGGER trg_orders_revenue_hours_delete AFTER DELETE ON public.orders FOR EACH ROW WHEN (((old.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_revenue_hours()`,
  ],
  [
    'trg_orders_revenue_hours_insert',
    'orders',
    `CREATE TRIGGER trg_orders_revenue_hours_insert AFTER INSERT ON public.orders FOR EACH ROW WHEN (((new.status)::text = 'completed'::text)) EXECUTE FUNCTION orders_revenue_hours()`,
  ],
  [
    'trg_orders_revenue_hours_update',
    'orders',
    `CREATE TRIGGER trg_orders_revenue_hours_update AFTER UPDATE OF status, created_at, total, refund_amount, currency, box_office_id ON public.orders FOR EACH ROW WHEN (((((old.status)::text = 'completed'::text) OR ((new.status)::text = 'completed'::text)) AND (((old.status)::text IS DISTINCT FROM (new.status)::text) OR (old.created_at IS DISTINCT FROM new.created_at) OR (old.total IS DISTINCT FROM new.total) OR (old.refund_amount IS DISTINCT FROM new.refund_amount) OR ((old.currency)::text IS DISTINCT FROM (new.currency)::text) OR (old.box_office_id IS DISTINCT FROM new.box_office_id)))) EXECUTE FUNCTION orders_revenue_hours()`,
  ],
];

/** `down`'s fold: every box office's deltas into their rows, at once (tables locked). */
const FOLD_EVERYTHING = [
  `UPDATE events e
      SET completed_orders_count = e.completed_orders_count + s.orders,
          valid_tickets_count = e.valid_tickets_count + s.tickets,
          completed_revenue = e.completed_revenue + s.revenue
     FROM (SELECT event_id, sum(completed_orders_count) AS orders,
                  sum(valid_tickets_count) AS tickets, sum(completed_revenue) AS revenue
             FROM event_count_deltas GROUP BY event_id) s
    WHERE e.id = s.event_id`,
  `UPDATE ticket_types y SET quantity_issued = y.quantity_issued + s.issued
     FROM (SELECT ticket_type_id, sum(quantity_issued) AS issued FROM ticket_type_count_deltas
            GROUP BY ticket_type_id) s
    WHERE y.id = s.ticket_type_id`,
  ...(
    [
      ['order_hours', 'hour', 'hour', 'completed_orders', false],
      ['order_days', 'day', 'hour / 24', 'completed_orders', false],
      ['revenue_hours', 'hour', 'hour', 'revenue', true],
      ['revenue_days', 'day', 'hour / 24', 'revenue', true],
      ['ticket_hours', 'hour', 'hour', 'valid_tickets', false],
      ['ticket_days', 'day', 'hour / 24', 'valid_tickets', false],
    ] as const
  ).map(([table, bucket, of, column, byCurrency]) => {
    const currency = byCurrency ? 'currency, ' : '';
    return `INSERT INTO ${table} AS r (box_office_id, ${currency}${bucket}, ${column})
      SELECT box_office_id, ${currency}${of}, sum(${column}) FROM activity_deltas
       WHERE ${byCurrency ? 'currency IS NOT NULL' : 'true'}
       GROUP BY box_office_id, ${currency}${of} HAVING sum(${column}) <> 0
      ON CONFLICT (box_office_id, ${currency}${bucket})
      DO UPDATE SET ${column} = r.${column} + excluded.${column}`;
  }),
];

export class CountsWithoutHotRows1766900000000 implements MigrationInterface {
  name = 'CountsWithoutHotRows1766900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    await queryRunner.query(
      `CREATE TABLE event_count_deltas (
         box_office_id integer NOT NULL,
         event_id integer NOT NULL,
         completed_orders_count integer DEFAULT 0 NOT NULL,
         valid_tickets_count integer DEFAULT 0 NOT NULL,
         completed_revenue bigint DEFAULT 0 NOT NULL
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE ticket_type_count_deltas (
         box_office_id integer NOT NULL,
         ticket_type_id integer NOT NULL,
         quantity_issued integer NOT NULL
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE activity_deltas (
         box_office_id integer NOT NULL,
         hour integer NOT NULL,
         currency character varying(3),
         completed_orders integer DEFAULT 0 NOT NULL,
         revenue bigint DEFAULT 0 NOT NULL,
         valid_tickets integer DEFAULT 0 NOT NULL
       )`,
    );
    // A reader's look-up by what it counts; a fold's and a sweep's by box office.
    await queryRunner.query(
      'CREATE INDEX "IDX_event_count_deltas_event" ON event_count_deltas (event_id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_event_count_deltas_box_office" ON event_count_deltas (box_office_id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_ticket_type_count_deltas_type" ON ticket_type_count_deltas (ticket_type_id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_ticket_type_count_deltas_box_office" ON ticket_type_count_deltas (box_office_id)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_activity_deltas_hour" ON activity_deltas (box_office_id, hour)',
    );
    for (const [trigger, table] of TRIGGERS_BEFORE) {
      await queryRunner.query(`DROP TRIGGER ${trigger} ON ${table}`);
    }
    for (const definition of FUNCTIONS_BEFORE) {
      const [, name] = /FUNCTION public\.(\w+)\(/.exec(definition)!;
      await queryRunner.query(`DROP FUNCTION ${name}()`);
    }
    for (const op of OPERATIONS) {
      await queryRunner.query(orderDeltas(op));
      await queryRunner.query(ticketDeltas(op));
      for (const table of ['orders', 'issued_tickets']) {
        await queryRunner.query(
          `CREATE TRIGGER trg_${table}_count_deltas_${op}
             AFTER ${op.toUpperCase()} ON ${table} ${transitionTables(op)}
             FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count_deltas_on_${op}()`,
        );
      }
    }
    await queryRunner.query(FOLD_COUNTS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return;
    // What is waiting goes into the rows first. The deltas' tables are taken whole (a fold in
    // progress finishes first; one that starts waits, and finds them gone), then the counted and
    // counting tables against writers, and every delta is added to its row here, without
    // fold_counts' advisory lock, which a waiting fold may hold. A writer in flight may need a
    // table this has already taken (a sale that updated a ticket type, then inserts its order):
    // no one order of these tables suits every writer, so the locks wait 5 s at most, and a
    // revert that cannot take them fails whole (run again in a quiet minute) instead of
    // deadlocking with a sale (OPERATIONS.md, "Upgrade notes").
    await queryRunner.query("SET LOCAL lock_timeout = '5s'");
    await queryRunner.query(
      'LOCK TABLE event_count_deltas, ticket_type_count_deltas, activity_deltas IN ACCESS EXCLUSIVE MODE',
    );
    await queryRunner.query(
      'LOCK TABLE orders, issued_tickets, events, ticket_types IN SHARE ROW EXCLUSIVE MODE',
    );
    for (const statement of FOLD_EVERYTHING) await queryRunner.query(statement);
    await queryRunner.query('DROP FUNCTION fold_counts(integer)');
    for (const op of OPERATIONS) {
      for (const table of ['orders', 'issued_tickets']) {
        await queryRunner.query(
          `DROP TRIGGER trg_${table}_count_deltas_${op} ON ${table}`,
        );
        await queryRunner.query(
          `DROP FUNCTION ${table}_count_deltas_on_${op}()`,
        );
      }
    }
    for (const definition of FUNCTIONS_BEFORE) {
      await queryRunner.query(definition);
    }
    for (const [, , definition] of TRIGGERS_BEFORE) {
      await queryRunner.query(definition);
    }
    await queryRunner.query('DROP TABLE activity_deltas');
    await queryRunner.query('DROP TABLE ticket_type_count_deltas');
    await queryRunner.query('DROP TABLE event_count_deltas');
  }
}
