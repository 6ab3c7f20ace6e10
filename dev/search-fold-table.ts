/**
 * The rule of the search fold that the `name` and `venue` filters compare in (docs/API.md, "Text
 * search"), and the table it gives: per code point whose fold is not itself, its folded string.
 * Migration SearchFold holds the table as this module wrote it (a shipped migration never
 * changes); `npx ts-node --transpile-only dev/search-fold-table.cli.ts` prints it again, for a
 * migration that would change the fold.
 *
 * A code point's fold, repeated until nothing changes:
 * 1. its compatibility decomposition (NFKD: `ﬁ` → `fi`, `Ｔ` → `T`, `é` → `e` + U+0301,
 *    `½` → `1⁄2`);
 * 2. without the combining diacritical marks of the Latin, Greek and Cyrillic alphabets
 *    (U+0300–U+036F and their supplements: `DIACRITICS`) and without the default-ignorable
 *    characters (soft hyphen, zero-width joiners, variation selectors);
 * 3. each character's full lower case, through its upper case (`ß` → `SS` → `ss`, `ẞ` → `ss`, a
 *    final `ς` → `Σ` → `σ`, `İ` → `i`);
 * 4. the dotless `ı` and `ȷ` as `i` and `j` (so `I`, `ı`, `İ` and `i` are one letter, whatever
 *    the language);
 * 5. recomposed (NFC), so that a Hangul syllable stays one syllable.
 * Marks of other scripts (Hebrew points, Indic vowel signs) stay, and so do letters of their own
 * (`ø`, `æ`, `ł`, `đ`, `þ`). A string folds character by character: the fold of a string is its
 * characters' folds, one after another.
 */

/** Combining marks that are accents on Latin, Greek and Cyrillic letters. */
const DIACRITICS =
  /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/gu;
/** Assigned characters that render as nothing (`\P{Cn}`: not the reserved ones). */
const IGNORABLE = /(?=\P{Cn})\p{Default_Ignorable_Code_Point}/gu;
const DOTLESS = /[ıȷ]/gu;

function step(text: string): string {
  const bare = text
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .replace(IGNORABLE, '');
  const lower = Array.from(bare, (c) => c.toUpperCase().toLowerCase()).join('');
  return lower
    .replace(DOTLESS, (c) => (c === 'ı' ? 'i' : 'j'))
    .normalize('NFC');
}

/** One code point's fold, by the rule above. */
export function foldCodePoint(c: string): string {
  let folded = c;
  for (let round = 0; round < 8; round++) {
    const next = step(folded);
    if (next === folded) return folded;
    folded = next;
  }
  throw new Error(`U+${c.codePointAt(0)!.toString(16)} has no fold`);
}

/**
 * Every code point whose fold is not itself, with its fold, by code point. Each character of a
 * fold folds to itself, so folding a folded string changes nothing (checked here).
 */
export function searchFoldTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // surrogates: not characters
    const c = String.fromCodePoint(cp);
    const folded = foldCodePoint(c);
    if (folded !== c) table.set(c, folded);
  }
  for (const [c, folded] of table) {
    for (const part of folded) {
      if (table.has(part)) {
        throw new Error(
          `the fold of U+${c.codePointAt(0)!.toString(16)} is not folded`,
        );
      }
    }
  }
  return table;
}

/** JSON text in printable ASCII: every other character, and `"`, `'` and `\`, as `\uXXXX`. */
function escapeJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const c = text[i];
    out +=
      unit >= 0x20 && unit < 0x7f && c !== '"' && c !== "'" && c !== '\\'
        ? c
        : `\\u${unit.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * The table as a JSON object in printable ASCII (no `'`, so that SQL can quote it as it is),
 * keys in code point order, cut into lines of at most `width` characters.
 */
export function tableJsonLines(
  table: ReadonlyMap<string, string>,
  width = 80,
): string[] {
  const entries = [...table].map(
    ([c, folded]) => `"${escapeJson(c)}":"${escapeJson(folded)}"`,
  );
  const lines: string[] = [];
  let line = '{';
  entries.forEach((entry, i) => {
    const piece = entry + (i === entries.length - 1 ? '}' : ',');
    if (line.length + piece.length > width) {
      lines.push(line);
      line = '';
    }
    line += piece;
  });
  lines.push(line);
  return lines;
}
