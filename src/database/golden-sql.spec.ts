import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { type Filter, filters } from '../common/pagination/list-filters';
import {
  ResourceReader,
  type ResourceSource,
  type Statement,
  planList,
} from '../common/resources/resource-reader';
import { CHECK_IN_SOURCE } from '../check-ins/check-in.fields';
import { ScanRecorder } from '../check-ins/scan-recorder';
import { TicketWrites } from '../issued-tickets/ticket-writes';
import { IdempotencyKeys } from '../common/idempotency/idempotency-keys';
import { checkInFilters } from '../check-ins/check-ins.service';
import { ListCheckInsQueryDto } from '../check-ins/dto/list-check-ins-query.dto';
import { ListEventSeriesQueryDto } from '../event-series/dto/list-event-series-query.dto';
import { EVENT_SERIES_SOURCE } from '../event-series/event-series.fields';
import { seriesFilters } from '../event-series/event-series.service';
import { ListEventsQueryDto } from '../events/dto/list-events-query.dto';
import { EVENT_SOURCE } from '../events/event.fields';
import { eventFilters } from '../events/events.service';
import { ListIssuedTicketsQueryDto } from '../issued-tickets/dto/list-issued-tickets-query.dto';
import { ISSUED_TICKET_SOURCE } from '../issued-tickets/issued-ticket.fields';
import { issuedTicketFilters } from '../issued-tickets/issued-tickets.service';
import { ListOrdersQueryDto } from '../orders/dto/list-orders-query.dto';
import { ORDER_SOURCE } from '../orders/order.fields';
import { orderFilters } from '../orders/orders.service';
import type { Row } from './row-reader';
import { dialectFor } from './sql-dialect';
import type { WriteWork } from './write-transaction';
import { ListDiscountsQueryDto } from '../discounts/dto/list-discounts-query.dto';
import { DISCOUNT_SOURCE } from '../discounts/discount.fields';
import { discountFilters } from '../discounts/discounts.service';
import { ListProductsQueryDto } from '../products/dto/list-products-query.dto';
import { PRODUCT_SOURCE } from '../products/product.fields';
import { productFilters } from '../products/products.service';
import {
  VOUCHER_CODE_SOURCE,
  VOUCHER_SOURCE,
} from '../vouchers/voucher.fields';
import { WAITLIST_SIGNUP_SOURCE } from '../waitlist-signups/waitlist-signup.fields';

/**
 * The statements each resource sends, checked in as `src/<resource>/sql/<name>.<database>.sql`
 * so that a reviewer reads the real SQL and a diff shows every change to it. This test fails when
 * the generated SQL and the file differ; `npm run sql:update` rewrites the files.
 */
interface GoldenResource {
  readonly name: string;
  readonly folder: string;
  readonly source: ResourceSource;
  /** A query that uses every filter the list has. */
  readonly everyFilter: Filter[];
}

const query = <T extends object>(type: new () => T, values: object): T =>
  Object.assign(new type(), values);

const RESOURCES: GoldenResource[] = [
  {
    name: 'orders',
    folder: 'orders',
    source: ORDER_SOURCE,
    everyFilter: orderFilters(
      1,
      query(ListOrdersQueryDto, {
        created_at: 1750000000,
        'created_at.gt': 1750000000,
        'created_at.gte': 1750000000,
        'created_at.lt': 1760000000,
        'created_at.lte': 1760000000,
        event_id: 'ev_1,ev_2',
        status: 'completed',
        email: 'jane@example.com',
        txn_id: 'ch_1',
        barcode: 'BC1',
        event_series_id: 'es_1,es_2',
      }),
    ),
  },
  {
    name: 'events',
    folder: 'events',
    source: EVENT_SOURCE,
    everyFilter: eventFilters(
      query(ListEventsQueryDto, {
        start_at: 1750000000,
        'start_at.gt': 1750000000,
        'start_at.gte': 1750000000,
        'start_at.lt': 1760000000,
        'start_at.lte': 1760000000,
        end_at: 1750000000,
        'end_at.gt': 1750000000,
        'end_at.gte': 1750000000,
        'end_at.lt': 1760000000,
        'end_at.lte': 1760000000,
        status: 'published,sales_closed',
        event_series_id: 'es_1',
      }),
    ),
  },
  {
    name: 'event-series',
    folder: 'event-series',
    source: EVENT_SERIES_SOURCE,
    everyFilter: seriesFilters(
      query(ListEventSeriesQueryDto, {
        'created_at.gte': 1750000000,
        'created_at.lt': 1760000000,
        status: 'published,draft',
        name: 'jazz',
        venue: 'hall',
      }),
    ),
  },
  {
    name: 'issued-tickets',
    folder: 'issued-tickets',
    source: ISSUED_TICKET_SOURCE,
    everyFilter: issuedTicketFilters(
      1,
      query(ListIssuedTicketsQueryDto, {
        created_at: 1750000000,
        'created_at.gt': 1750000000,
        'created_at.gte': 1750000000,
        'created_at.lt': 1760000000,
        'created_at.lte': 1760000000,
        updated_at: 1750000000,
        'updated_at.gt': 1750000000,
        'updated_at.gte': 1750000000,
        'updated_at.lt': 1760000000,
        'updated_at.lte': 1760000000,
        event_id: 'ev_1,ev_2',
        order_id: 'or_1',
        status: 'valid',
        barcode: 'BC1',
        email: 'jane@example.com',
        event_series_id: 'es_1,es_2',
        ticket_type_id: 'tt_1',
        checked_in: 'true',
        search: 'or_12',
      }),
    ),
  },
  {
    name: 'check-ins',
    folder: 'check-ins',
    source: CHECK_IN_SOURCE,
    everyFilter: checkInFilters(
      query(ListCheckInsQueryDto, {
        'created_at.gte': 1750000000,
        'created_at.lt': 1760000000,
        'check_in_at.gte': 1750000000,
        'check_in_at.lt': 1760000000,
        event_id: 'ev_1,ev_2',
        event_series_id: 'es_1',
        issued_ticket_id: 'it_1',
        quantity: '-1',
      }),
    ),
  },
  {
    name: 'products',
    folder: 'products',
    source: PRODUCT_SOURCE,
    everyFilter: productFilters(
      query(ListProductsQueryDto, { status: 'available,sold_out' }),
    ),
  },
  {
    name: 'vouchers',
    folder: 'vouchers',
    source: VOUCHER_SOURCE,
    everyFilter: [],
  },
  {
    name: 'voucher-codes',
    folder: 'vouchers',
    source: VOUCHER_CODE_SOURCE,
    // The nested list's one condition is its voucher, the scope.
    everyFilter: [filters.equals('vc.voucher_id', 7)],
  },
  {
    name: 'discounts',
    folder: 'discounts',
    source: DISCOUNT_SOURCE,
    everyFilter: discountFilters(
      query(ListDiscountsQueryDto, { code: 'support10' }),
    ),
  },
  {
    name: 'waitlist-signups',
    folder: 'waitlist-signups',
    source: WAITLIST_SIGNUP_SOURCE,
    everyFilter: [filters.equals('ws.event_series_id', 3)],
  },
];

const DATABASES = [
  ['sqlite', 'better-sqlite3'],
  ['postgres', 'postgres'],
] as const;

function render(reader: ResourceReader, resource: GoldenResource): string {
  const position = { key: 1750000000, id: 42 };
  const { source } = resource;
  const first = planList(source, { limit: 100, filters: [] });
  const filtered = planList(source, {
    limit: 100,
    filters: resource.everyFilter,
  });
  const backwards = planList(source, {
    limit: 100,
    filters: [],
    ending_before: `${source.prefix}42`,
  });
  const { sorts } = source;
  const otherSorts = Object.keys(sorts.options).filter(
    (sort) => sort !== sorts.default,
  );
  const sections: (readonly [string, Statement | string])[] = [
    ['retrieve', reader.oneStatement(1, 42)],
    ['list: first page', reader.pageStatement(1, first, null)],
    [
      'list: starting_after, every filter',
      reader.pageStatement(1, filtered, position),
    ],
    [
      'list: ending_before (read backwards from the cursor, then reversed)',
      reader.pageStatement(1, backwards, position),
    ],
    ['cursor lookup', reader.cursorStatement(1, 42, first)],
    // Only where a page reads its cursor's row itself; elsewhere the lookup above is sent first.
    ...(reader.dialect.valueFreePages
      ? [
          [
            'list: starting_after a plain id, where the page reads its row (SqlDialect.valueFreePages)',
            reader.pageStatement(1, filtered, { row: 42 }),
          ] as const,
        ]
      : []),
    [
      'probe: anything before the page?',
      reader.probeStatement(1, filtered, position, 'before'),
    ],
    ...otherSorts.flatMap((sort) => {
      const sorted = planList(source, { limit: 100, filters: [], sort });
      return [
        [
          `list: sort=${sort}, starting_after`,
          reader.pageStatement(1, sorted, position),
        ] as const,
        [
          `cursor lookup, sort=${sort}`,
          reader.cursorStatement(1, 42, sorted),
        ] as const,
      ];
    }),
    ...reader.json.childStatements.map(
      (sql, i) => [`children ${i + 1}, for a whole page`, sql] as const,
    ),
  ];
  const header = `-- Generated by src/database/golden-sql.spec.ts (npm run sql:update). Do not edit.\n-- The statements ${resource.name} sends on ${reader.dialect.name}.\n`;
  return (
    header +
    sections
      .map(
        ([title, statement]) =>
          `\n-- ${title}\n${typeof statement === 'string' ? statement : statement.sql};\n`,
      )
      .join('')
  );
}

/**
 * The first statements a write transaction sends, given the rows each gets back: the work driven
 * as the database would drive it, as far as the last statement those rows lead to.
 */
function sent<T>(work: WriteWork<T>, rows: Row[][]): Statement[] {
  const statements: Statement[] = [];
  let step = work.next();
  while (!step.done) {
    statements.push(step.value);
    if (statements.length > rows.length) break;
    step = work.next(rows[statements.length - 1]);
  }
  return statements;
}

/** A scan's write transaction (check-ins/scan-recorder.ts) and its Idempotency-Key's steps. */
function renderScan(type: string): string {
  const reader = new ResourceReader(
    { options: { type } } as unknown as DataSource,
    CHECK_IN_SOURCE,
  );
  const dialect = dialectFor(type);
  const scans = new ScanRecorder(
    dialect,
    reader,
    new ResourceReader(
      { options: { type } } as unknown as DataSource,
      ISSUED_TICKET_SOURCE,
    ),
  );
  const keys = new IdempotencyKeys(dialect);
  const ticket = {
    id: 5,
    status: 'valid',
    voided_at: null,
    created_at: 1750000000,
    event_id: 3,
    event_series_id: 2,
    now: 1760000000,
  };
  const scan = { quantity: 1, check_in_at: 1759999000, created_at: 1759999000 };
  const checkIn = {
    id: 9,
    box_office_id: 1,
    issued_ticket_id: 5,
    event_id: 3,
    event_series_id: 2,
    quantity: 1,
    check_in_at: 1760000000,
    created_at: 1760000000,
  };
  // PostgreSQL's INSERT returns the check-in's JSON (SqlDialect.returnsStampedRows); SQLite's
  // returns its id, and the check-in is read again.
  const [byId, history, insert, readBack] = sent(
    scans.scan(1, { ticket: { id: 5 }, quantity: 1, checkInAt: null }),
    [[ticket], [], [checkIn]],
  );
  const [byBarcode, , deciding] = sent(
    scans.scan(1, {
      ticket: { barcode: 'BC1' },
      quantity: 1,
      checkInAt: null,
    }),
    [[ticket], [{ id: 8, ...scan }]],
  );
  // A ticket of another event than the door's: refused before its scans are read, with the
  // ticket as the answer shows it (the statement a refusal, and an expanded 201, ends with).
  const [, issuedTicket] = sent(
    scans.scan(1, {
      ticket: { id: 5 },
      quantity: 1,
      checkInAt: null,
      eventIds: [4],
    }),
    [[ticket]],
  );
  // A refusal reads the check-in that decides it with the statement that reads one back.
  if (readBack && deciding.sql !== readBack.sql) {
    throw new Error('a refusal reads otherwise');
  }
  const request = { apiKeyId: 1, key: 'k', fingerprint: 'f' };
  // The hold sends nothing where writes take turns (SQLite).
  const [hold] = sent(keys.hold(request), [[{ free: true }]]);
  const sections: [string, Statement | undefined][] = [
    ...(hold
      ? [
          ['Idempotency-Key: hold the key (with BEGIN)', hold] as [
            string,
            Statement,
          ],
        ]
      : []),
    ['the ticket, by id', byId],
    ['the ticket, by barcode', byBarcode],
    ['its scans', history],
    [
      readBack
        ? 'a scan allowed: the check-in'
        : 'a scan allowed: the check-in, and its JSON from what the INSERT returns',
      insert,
    ],
    [
      readBack
        ? 'the check-in as the answer shows it: the one recorded, or the one that decides a refusal'
        : 'the check-in that decides a refusal, as the answer shows it',
      deciding,
    ],
    [
      'the ticket as the answer shows it: on a refusal, and with ?expand=issued_ticket after the check-in',
      issuedTicket,
    ],
    [
      'Idempotency-Key: keep the answer, in the scan’s transaction',
      sent(keys.keepAnswer(request, { status: 201, headers: {}, body: '' }), [
        [{ status: 201 }],
      ])[0],
    ],
    [
      'Idempotency-Key: the kept answer, after a scan that kept none',
      sent(keys.keptAnswer(request), [[]])[0],
    ],
  ];
  for (const [title, statement] of sections) {
    if (statement === undefined) throw new Error(`no statement: ${title}`);
  }
  return (
    `-- Generated by src/database/golden-sql.spec.ts (npm run sql:update). Do not edit.\n-- The statements a scan's write transaction (POST /v1/check_ins) sends on ${dialect.name}, in order.\n` +
    sections
      .map(([title, statement]) => `\n-- ${title}\n${statement!.sql};\n`)
      .join('')
  );
}

/** The ticket writes' transactions (issued-tickets/ticket-writes.ts), their steps in order. */
function renderTicketWrites(type: string): string {
  const dialect = dialectFor(type);
  const writes = new TicketWrites(
    dialect,
    new ResourceReader(
      { options: { type } } as unknown as DataSource,
      ISSUED_TICKET_SOURCE,
    ),
  );
  const ticket = {
    eventId: 3,
    ticketTypeId: 7,
    holder: { full: 'Jane Doe', first: 'Jane', last: 'Doe' },
    email: 'jane@example.com',
  };
  // PostgreSQL: the event and the type's lock, then what is left, the INSERT and the ticket's
  // JSON in one statement. SQLite: the event and the type with what is left, the INSERT, and the
  // ticket read again.
  const stamped = dialect.returnsStampedRows;
  const [eventAndType, insert, answer] = sent(writes.issue(1, ticket), [
    [
      {
        event_id: 3,
        ticket_type_id: 7,
        name: 'Guest list',
        left_over: 1,
        now: 1760000000,
      },
    ],
    ...(stamped ? [] : [[{ id: 9 }]]),
  ]);
  // A void that voided none: the ticket read, for 404 or ALREADY_VOID.
  const [update, ticketRow] = sent(writes.void(1, 9), [[]]);
  const sections: [string, Statement | undefined][] = [
    [
      stamped
        ? 'issue: the event, of this box office, and the ticket type, of that event, locked'
        : 'issue: the event, of this box office, and the ticket type, of that event, with what it has left',
      eventAndType,
    ],
    [
      stamped
        ? 'issue: what the type has left, the ticket inserted when some is and no ticket has its barcode, and its JSON'
        : 'issue: the ticket, inserted when no ticket has its barcode',
      insert,
    ],
    ...(stamped
      ? []
      : [
          ['issue, void: the ticket as the answer shows it', answer] as [
            string,
            Statement | undefined,
          ],
        ]),
    [
      stamped
        ? 'void: the ticket, of this box office, void unless void already, and its JSON'
        : 'void: the ticket, of this box office, void unless void already',
      update,
    ],
    ['void, when none was voided: the ticket, of this box office', ticketRow],
  ];
  for (const [title, statement] of sections) {
    if (statement === undefined) throw new Error(`no statement: ${title}`);
  }
  return (
    `-- Generated by src/database/golden-sql.spec.ts (npm run sql:update). Do not edit.\n-- The statements of POST /v1/issued_tickets and POST /v1/issued_tickets/{id}/void on ${dialect.name}, in order.\n` +
    sections
      .map(([title, statement]) => `\n-- ${title}\n${statement!.sql};\n`)
      .join('')
  );
}

describe('golden SQL files', () => {
  const update = process.env.UPDATE_GOLDEN_SQL === '1';

  /** Compares (or, with UPDATE_GOLDEN_SQL=1, writes) one golden file. */
  function golden(file: string, generated: string) {
    if (update) writeFileSync(file, generated);
    let checkedIn = '';
    try {
      checkedIn = readFileSync(file, 'utf8');
    } catch {
      // A missing file fails below, with the same message as a stale one.
    }
    if (checkedIn !== generated) {
      throw new Error(
        `${file} is not what the code sends: run \`npm run sql:update\` and review the diff`,
      );
    }
  }

  for (const resource of RESOURCES) {
    for (const [database, type] of DATABASES) {
      const file = join(
        __dirname,
        '..',
        resource.folder,
        'sql',
        `${resource.name}.${database}.sql`,
      );
      it(`${resource.folder}/sql/${resource.name}.${database}.sql is current`, () => {
        const reader = new ResourceReader(
          { options: { type } } as unknown as DataSource,
          resource.source,
        );
        golden(file, render(reader, resource));
      });
    }
  }

  for (const [database, type] of DATABASES) {
    it(`check-ins/sql/record-scan.${database}.sql is current`, () => {
      golden(
        join(
          __dirname,
          '..',
          'check-ins',
          'sql',
          `record-scan.${database}.sql`,
        ),
        renderScan(type),
      );
    });
    it(`issued-tickets/sql/ticket-writes.${database}.sql is current`, () => {
      golden(
        join(
          __dirname,
          '..',
          'issued-tickets',
          'sql',
          `ticket-writes.${database}.sql`,
        ),
        renderTicketWrites(type),
      );
    });
  }
});
