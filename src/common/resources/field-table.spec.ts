import { ISSUED_TICKET_FIELDS } from '../../issued-tickets/issued-ticket.fields';
import { ORDER_FIELDS } from '../../orders/order.fields';
import {
  aliasesRead,
  checkFieldTable,
  type Fields,
  type JsonArray,
  type RowAggregate,
  inlineRowAggregate,
  json,
  rowAggregateSql,
} from './field-table';
import { compileJsonWriter } from './json/postgres';
import { compileJsonInSql } from './json/sqlite';

/** An order's tickets, as ORDER_FIELDS reads them, with `of` and `parentAliases` replaceable. */
const tickets = (of: Fields, parentAliases?: readonly string[]): JsonArray =>
  json.array({
    of: json.object(of),
    from: 'issued_tickets t',
    parentAliases,
    link: ['t.order_id', 'o.id'],
    orderBy: ['t.id'],
    indexOrdered: true,
  });

const COMPILERS = [
  ['SQLite', compileJsonInSql],
  ['PostgreSQL', compileJsonWriter],
] as const;

describe('aliasesRead', () => {
  it('finds the aliases an expression reads, not those in its strings or its own subqueries', () => {
    expect(aliasesRead('o.buyer_email')).toEqual(['o']);
    expect(aliasesRead("'https://cdn.boxoffice.example/' || e.id")).toEqual([
      'e',
    ]);
    expect(
      aliasesRead(
        'EXISTS (SELECT 1 FROM ticket_types ta WHERE ta.event_id = ev.id)',
      ),
    ).toEqual(['ev']);
  });
});

describe('checkFieldTable', () => {
  it("accepts the service's field tables", () => {
    expect(() => checkFieldTable(ORDER_FIELDS)).not.toThrow();
  });

  describe.each(COMPILERS)(
    'stops the %s compiler, when the application starts, on',
    (_name, compile) => {
      it('a child that reads a parent alias it does not name in parentAliases', () => {
        const fields: Fields = [
          ['issued_tickets', tickets(ISSUED_TICKET_FIELDS, ['e'])],
        ];
        expect(() => compile(fields)).toThrow(
          'o.buyer_email: an array of issued_tickets t reads o, which is neither its own alias nor one of its parentAliases',
        );
      });

      it("a child that computes with a parent's column", () => {
        const fields: Fields = [
          [
            'issued_tickets',
            tickets([['email', json.string('lower(o.buyer_email)')]], ['o']),
          ],
        ];
        expect(() => compile(fields)).toThrow(
          "lower(o.buyer_email): a child reads its parent's columns as they are (o.<column>)",
        );
      });

      it('a computed value inside an array', () => {
        const fields: Fields = [
          [
            'issued_tickets',
            tickets([['at', json.computed({ at: 't.created_at' }, String)]]),
          ],
        ];
        expect(() => compile(fields)).toThrow(
          'issued_tickets t: a computed value can only be a top-level field',
        );
      });

      it("a link that reads the parent's alias on the child's side", () => {
        const fields: Fields = [
          [
            'issued_tickets',
            json.array({
              ...tickets([['id', json.id('it_', 't.id')]]),
              link: ['o.id', 't.order_id'],
            }),
          ],
        ];
        expect(() => compile(fields)).toThrow(
          "o.id: an array's link reads its own table (t) on the child's side",
        );
      });

      it('a key that is not a plain snake_case name', () => {
        expect(() => compile([['Bad-Key', json.literal(1)]])).toThrow(
          'bad JSON key Bad-Key',
        );
      });
    },
  );
});

describe('a row aggregate', () => {
  const dates: RowAggregate = {
    alias: 'sd',
    from: 'events x WHERE x.event_series_id = es.id',
    columns: { total: 'count(*)', first: 'min(x.start_at)' },
  };

  it('is one subquery yielding all its columns, for a lateral join', () => {
    expect(rowAggregateSql(dates)).toBe(
      '(SELECT count(*) AS total, min(x.start_at) AS first FROM events x WHERE x.event_series_id = es.id) sd',
    );
  });

  it('is inlined as one scalar subquery per reference, at any depth and in computed values', () => {
    const fields: Fields = [
      ['total', json.integer('sd.total + 0')],
      ['dates', json.object([['first', json.nullableInteger('sd.first')]])],
      ['next', json.computed({ unix: 'sd.first' }, () => 'null')],
      ['name', json.string('es.name')],
    ];
    const inlined = inlineRowAggregate(fields, dates);
    const sqlOf = (value: unknown) => (value as { sql: string }).sql;
    expect(sqlOf(inlined[0][1])).toBe(
      '(SELECT count(*) FROM events x WHERE x.event_series_id = es.id) + 0',
    );
    const [[, first]] = (inlined[1][1] as { fields: Fields }).fields;
    expect(sqlOf(first)).toBe(
      '(SELECT min(x.start_at) FROM events x WHERE x.event_series_id = es.id)',
    );
    expect((inlined[2][1] as { columns: object }).columns).toEqual({
      unix: '(SELECT min(x.start_at) FROM events x WHERE x.event_series_id = es.id)',
    });
    expect(inlined[3]).toEqual(fields[3]);
  });

  it('refuses a column it does not have, when the table is compiled', () => {
    expect(() =>
      inlineRowAggregate([['n', json.integer('sd.count')]], dates),
    ).toThrow('sd.count: the row aggregate has no such column');
    expect(() =>
      inlineRowAggregate([['n', json.integer('sd.constructor')]], dates),
    ).toThrow('no such column');
  });
});
