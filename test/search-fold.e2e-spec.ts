import { SEARCH_FOLD_TABLE } from '../src/database/search-fold-table';
import { searchFold } from '../src/database/search-fold';
import { type Get, type ListBody } from './utils/api';
import { type ListApp, createListApp } from './utils/list-app';

// The `name` and `venue` filters of /v1/events and /v1/event_series compare in the search fold
// (docs/API.md, "Text search"), defined once: the database's search_fold() (PostgreSQL's from
// migration SearchFold, SQLite's registered on each connection) must fold exactly as the
// service's JavaScript does, so that both databases give the same rows. On SQLite by default, on
// PostgreSQL under `npm run test:e2e:postgres`.

const KEY = 'sk_test_search_fold_a';
const OTHER_KEY = 'sk_test_search_fold_b';

/** Names and venues that lower() handled differently on each database, or not at all. */
const CORPUS: [name: string, venue: string | null][] = [
  ['İstanbul Jazz Night', 'İstanbul Kongre Merkezi'],
  ['Kadıköy Sahnesi', 'KADIKÖY HALK EVİ'],
  ['Straße der Musik', 'Musikhaus an der Straße'],
  ['STRAẞENFEST', null],
  ['Café Olé', 'Café de Flore'],
  ['Cafe\u0301 Concert', 'Le Cafe\u0301 Noir'],
  ['ΟΔΟΣ Live', 'Θέατρο Οδός'],
  ['ﬁnal Night', 'The ﬂoor'],
  ['Ｔｏｋｙｏ Ｊａｚｚ', 'Ｔｏｋｙｏ Ｄｏｍｅ'],
  ['Nørrebro Nights', 'Nørrebro Folkehus'],
  ['Comedy Night', 'The Hall'],
  ['100% Live', null],
];

/** Each search, and the names it finds (in the corpus's order). */
const SEARCHES: [query: string, names: string[]][] = [
  ['name=istanbul', ['İstanbul Jazz Night']],
  ['name=İSTANBUL', ['İstanbul Jazz Night']],
  ['name=ıstanbul', ['İstanbul Jazz Night']],
  // İ is an i, dotted or not: it finds every i.
  [
    'name=İ',
    [
      'İstanbul Jazz Night',
      'Kadıköy Sahnesi',
      'Straße der Musik',
      'ΟΔΟΣ Live',
      'ﬁnal Night',
      'Nørrebro Nights',
      'Comedy Night',
      '100% Live',
    ],
  ],
  ['name=kadikoy', ['Kadıköy Sahnesi']],
  ['name=strasse', ['Straße der Musik', 'STRAẞENFEST']],
  ['name=STRAẞE', ['Straße der Musik', 'STRAẞENFEST']],
  ['name=cafe', ['Café Olé', 'Cafe\u0301 Concert']],
  ['name=CAFÉ', ['Café Olé', 'Cafe\u0301 Concert']],
  ['name=ole', ['Café Olé']],
  ['name=οδος', ['ΟΔΟΣ Live']],
  ['name=ΟΣ', ['ΟΔΟΣ Live']],
  ['name=final', ['ﬁnal Night']],
  ['name=tokyo', ['Ｔｏｋｙｏ Ｊａｚｚ']],
  ['name=ＪＡＺＺ', ['İstanbul Jazz Night', 'Ｔｏｋｙｏ Ｊａｚｚ']],
  // ø is a letter of its own, not an o with an accent.
  ['name=norrebro', []],
  ['name=NØRREBRO', ['Nørrebro Nights']],
  ['venue=istanbul', ['İstanbul Jazz Night']],
  ['venue=evi', ['Kadıköy Sahnesi']],
  ['venue=strasse', ['Straße der Musik']],
  ['venue=cafe', ['Café Olé', 'Cafe\u0301 Concert']],
  ['venue=οδος', ['ΟΔΟΣ Live']],
  ['venue=floor', ['ﬁnal Night']],
  ['venue=dome', ['Ｔｏｋｙｏ Ｊａｚｚ']],
  ['venue=hall&name=comedy', ['Comedy Night']],
  // A full-width ％ folds to a literal %, never a wildcard.
  ['name=１００％', ['100% Live']],
  ['name=％', ['100% Live']],
  ['name=y％', []],
];

describe('text search: name and venue in the search fold', () => {
  let app: ListApp;
  let get: Get;

  beforeAll(async () => {
    app = await createListApp(KEY, OTHER_KEY);
    get = app.get;
    const { f, a, b } = app;
    for (const [i, [name, venueName]] of CORPUS.entries()) {
      const series = await f.series(a.id, {
        name,
        venueName,
        createdAt: 1_700_000_000 + i,
      });
      await f.event(a.id, {
        name,
        venueName,
        eventSeriesId: series.id,
        startAt: 1_781_980_200 + i * 86_400,
        endAt: 1_781_991_000 + i * 86_400,
      });
    }
    // Another box office's namesake never shows.
    await f.event(b.id, { name: 'İstanbul Jazz Night', venueName: 'Café' });
  });

  afterAll(() => app.t.close());

  /** The names a list returns for the query, in the corpus's order. */
  async function names(path: string, query: string): Promise<string[]> {
    const res = await get(`${path}?${encodeURI(query)}&limit=100`);
    expect(res.status).toBe(200);
    const found = new Set(
      (res.body as ListBody<{ id: string; name: string }>).data.map(
        (item) => item.name,
      ),
    );
    return CORPUS.map(([name]) => name).filter((name) => found.has(name));
  }

  it.each(SEARCHES)('/v1/events?%s', async (query, expected) => {
    expect(await names('/v1/events', query)).toEqual(expected);
  });

  it.each(SEARCHES)('/v1/event_series?%s', async (query, expected) => {
    expect(await names('/v1/event_series', query)).toEqual(expected);
  });

  it('folds in the database exactly as the service does: every code point the table maps, every character of the first plane, and the corpus', async () => {
    const mapped = Object.keys(
      JSON.parse(SEARCH_FOLD_TABLE) as Record<string, string>,
    );
    const plane: string[] = [];
    for (let block = 0; block < 0x100; block++) {
      let text = '';
      for (let cp = block * 0x100; cp < (block + 1) * 0x100; cp++) {
        if ((cp < 0xd800 || cp > 0xdfff) && cp !== 0) {
          text += String.fromCodePoint(cp);
        }
      }
      plane.push(text);
    }
    const texts = [
      ...mapped,
      ...mapped.map((c) => `Ab${c}Yz`),
      ...plane,
      ...CORPUS.flatMap(([name, venue]) => [name, venue ?? '']),
      'ASCII only, UPPER and lower: 0-9 ~!',
    ];
    const folded = await databaseFold(texts);
    const disagreements = texts.filter(
      (text, i) => folded[i] !== searchFold(text),
    );
    expect(disagreements).toEqual([]);
    expect(folded.slice(0, 3)).toEqual(mapped.slice(0, 3).map(searchFold));
  });

  /** search_fold() of each text, computed by the database, in order. */
  async function databaseFold(texts: string[]): Promise<string[]> {
    const { dataSource } = app.t;
    const rows = await dataSource.query<{ folded: string }[]>(
      dataSource.options.type === 'postgres'
        ? `SELECT search_fold(t.text) AS folded FROM unnest($1::text[]) WITH ORDINALITY AS t(text, n) ORDER BY t.n`
        : `SELECT search_fold(t.value) AS folded FROM json_each(?) AS t ORDER BY t.key`,
      [dataSource.options.type === 'postgres' ? texts : JSON.stringify(texts)],
    );
    return rows.map((row) => row.folded);
  }
});
