import type { ReadRows, Row } from '../../../database/row-reader';
import { type Fields, type JsonArray, json } from '../field-table';
import { compileJsonWriter } from './postgres';

// The writer's children and the values they read from their parent row (`parentAliases`), with
// the database played by a table of values per column expression.

/** A slot (`s.id`, `s.venue`) and its items (`i.slot_id`); an item shows its slot's venue. */
const FIELDS: Fields = [
  ['id', json.integer('s.id')],
  [
    'items',
    json.array({
      of: json.object([
        ['id', json.integer('i.id')],
        ['venue', json.string('s.venue')],
      ]),
      from: 'items i',
      link: ['i.slot_id', 's.group_id'],
      orderBy: ['i.id'],
      indexOrdered: true,
      parentAliases: ['s'],
    }),
  ],
];

/** `<sql> AS <alias>` lines of a select list, as pairs. */
const columnsOf = (selectList: string) =>
  selectList.split(/,\n\s*/).map((column) => {
    const [sql, alias] = column.split(' AS ');
    return { sql: sql.trim(), alias: alias.trim() };
  });

/** A row as the driver returns it for a statement's select list, from values by expression. */
const rowOf = (selectList: string, values: Record<string, unknown>): Row =>
  Object.fromEntries(
    columnsOf(selectList).map(({ sql, alias }) => [alias, values[sql]]),
  );

describe('compileJsonWriter', () => {
  const writer = compileJsonWriter(FIELDS);
  const [childSql] = writer.childStatements;

  it('reads a parent-row value in the parent statement, and never joins the parent back', () => {
    expect(writer.selectList).toContain('s.venue AS ');
    expect(childSql).not.toContain('s.venue');
    expect(childSql).toMatch(/^FROM items i$/m);
  });

  it('refuses a child expression over a parent column, which only the parent statement could compute', () => {
    const [, items] = FIELDS;
    const array = items[1] as JsonArray;
    const computing = json.array({
      ...array,
      of: json.object([['venue', json.string('upper(s.venue)')]]),
    });
    expect(() => compileJsonWriter([['items', computing]])).toThrow(
      "upper(s.venue): a child reads its parent's columns as they are (s.<column>)",
    );
  });

  it("writes each child with its own parent's value, also when parents share a key", async () => {
    // Two slots of group 7 (they share its items) and one of group 8.
    const slots = [
      rowOf(writer.selectList, {
        's.id': 1,
        's.group_id': 7,
        's.venue': 'Hall',
      }),
      rowOf(writer.selectList, {
        's.id': 2,
        's.group_id': 7,
        's.venue': 'Yard',
      }),
      rowOf(writer.selectList, {
        's.id': 3,
        's.group_id': 8,
        's.venue': 'Barn',
      }),
    ];
    const items = [
      { id: 10, slot: 7 },
      { id: 11, slot: 7 },
      { id: 12, slot: 8 },
    ];
    const read: ReadRows = (sql, params) => {
      expect(sql).toBe(childSql);
      expect(params).toEqual([[7, 8]]);
      // Rows as arrays: the item's own column, then its parent key.
      return Promise.resolve(
        items.map(({ id, slot }) => [id, slot] as unknown as Row),
      );
    };
    await writer.readChildren(slots, read);
    expect(writer.write(slots).map((text) => JSON.parse(text))).toEqual([
      {
        id: 1,
        items: [
          { id: 10, venue: 'Hall' },
          { id: 11, venue: 'Hall' },
        ],
      },
      {
        id: 2,
        items: [
          { id: 10, venue: 'Yard' },
          { id: 11, venue: 'Yard' },
        ],
      },
      { id: 3, items: [{ id: 12, venue: 'Barn' }] },
    ]);
  });
});
