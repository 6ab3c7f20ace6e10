import { foldCodePoint, searchFoldTable } from '../../dev/search-fold-table';
import * as frozen from './migrations/1766010000000-SearchFold';
import { SEARCH_FOLD_TABLE, SEARCH_FOLD_UNICODE } from './search-fold-table';
import { SEARCH_FOLD_FUNCTION, searchFold, searchFoldSql } from './search-fold';

/** docs/API.md, "Text search": a search matches when the name's fold contains the search's. */
const matches = (name: string, search: string) =>
  searchFold(name).includes(searchFold(search));

describe('the search fold', () => {
  it.each([
    ['İstanbul', 'istanbul'],
    ['ISTANBUL', 'istanbul'],
    ['ıstanbul', 'istanbul'],
    ['Straße', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['Café', 'cafe'],
    ['Cafe\u0301', 'cafe'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['Αθήνα', 'αθηνα'],
    ['ﬁesta', 'fiesta'],
    ['Ｔｏｋｙｏ　Ｄｏｍｅ', 'tokyo dome'],
    ['𝐉𝐀𝐙𝐙 ①', 'jazz 1'],
    ['Straßen\u00adbahn', 'strassenbahn'],
    ['Nørrebro Łódź', 'nørrebro łodz'],
    ['서울 東京', '서울 東京'],
    ['Comedy Night', 'comedy night'],
  ])('folds %j to %j', (text, folded) => {
    expect(searchFold(text)).toBe(folded);
  });

  it.each([
    ['İstanbul Jazz', 'istanbul', true],
    ['Istanbul Jazz', 'İSTANBUL', true],
    ['Kadıköy Sahnesi', 'kadikoy', true],
    ['Straße der Musik', 'strasse', true],
    ['Strasse der Musik', 'straße', true],
    ['Café Olé', 'cafe ole', true],
    ['Cafe Ole', 'café', true],
    ['ΟΔΟΣ Live', 'οσ', true],
    ['ﬁnal night', 'fin', true],
    ['Ｈａｌｌ Ａ', 'hall a', true],
    ['Nørrebro', 'norrebro', false],
    ['Comedy Night', 'comedy  night', false],
  ])('%j matches a search for %j: %s', (name, search, expected) => {
    expect(matches(name, search)).toBe(expected);
  });

  it('folds ASCII text as its lower case, whether alone or beside other characters', () => {
    let ascii = '';
    for (let cp = 1; cp < 0x80; cp++) ascii += String.fromCharCode(cp);
    expect(searchFold(ascii)).toBe(ascii.toLowerCase());
    expect(searchFold(`${ascii}é`)).toBe(`${ascii.toLowerCase()}e`);
  });

  it('changes nothing the second time', () => {
    const table = JSON.parse(SEARCH_FOLD_TABLE) as Record<string, string>;
    for (const [c, folded] of Object.entries(table)) {
      expect([c, searchFold(folded)]).toEqual([c, folded]);
    }
  });

  it('is the table migration SearchFold froze into PostgreSQL', () => {
    expect(SEARCH_FOLD_TABLE).toBe(frozen.SEARCH_FOLD_TABLE);
    expect(SEARCH_FOLD_UNICODE).toBe(frozen.SEARCH_FOLD_UNICODE);
  });

  it('is the table the rule of dev/search-fold-table.ts gives', () => {
    const table = new Map(
      Object.entries(JSON.parse(SEARCH_FOLD_TABLE) as Record<string, string>),
    );
    if (process.versions.unicode === SEARCH_FOLD_UNICODE) {
      expect(searchFoldTable()).toEqual(table);
    } else {
      // Another Unicode may add characters (which then match only themselves); the folds of the
      // table's own are stable.
      for (const [c, folded] of table) {
        expect([c, foldCodePoint(c)]).toEqual([c, folded]);
      }
    }
  });

  it('is one SQL function on both databases, and leaves what is not text alone', () => {
    expect(searchFoldSql('ev.name')).toBe('search_fold(ev.name)');
    expect(SEARCH_FOLD_FUNCTION.fold('Café')).toBe('cafe');
    expect(SEARCH_FOLD_FUNCTION.fold(null)).toBeNull();
    expect(SEARCH_FOLD_FUNCTION.fold(42)).toBe(42);
  });
});
