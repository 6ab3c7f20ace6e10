import type { Fields, JsonComputed, JsonValue } from '../field-table';
import { checkFieldTable, checkKey } from '../field-table';

/**
 * Compiles a field table into SQLite SQL that builds the resource's JSON text inside the
 * database, as one `concat()` of constant text and scalar values (`json_quote`d strings,
 * integers, …), so that a page is concatenated rather than parsed and re-serialised.
 *
 * Why text and not `json_object()`: SQLite gives the result of a sub-query no JSON subtype, so a
 * child array built by a sub-query would be quoted as a string inside `json_object`, or must be
 * re-parsed with `json()`. Building every object as text lets arrays be spliced in where they
 * stand. The cost is a rule the compiler keeps: every value is either constant text or an
 * expression whose text is valid JSON.
 *
 * A computed value (see JsonComputed) splits the resource into segments: the service writes
 * `segment0 + value1 + segment1 + …` (see `joinSegments`).
 */
export interface SqlJson {
  /** SQL expressions, each the JSON text of one segment (segment i ends where value i goes). */
  readonly segments: readonly string[];
  /** The computed values, in order, one between each pair of segments. */
  readonly computed: readonly JsonComputed[];
}

type Piece = { readonly text: string } | { readonly sql: string };

/** Collects the parts of a concat(), merging neighbouring constant text. */
class ConcatParts {
  readonly pieces: Piece[] = [];

  text(text: string) {
    const last = this.pieces[this.pieces.length - 1];
    if (last !== undefined && 'text' in last) {
      this.pieces[this.pieces.length - 1] = { text: last.text + text };
    } else {
      this.pieces.push({ text });
    }
  }

  sql(sql: string) {
    this.pieces.push({ sql });
  }
}

// SQLite's default SQLITE_MAX_FUNCTION_ARG is 127 on older builds: stay well under it.
const MAX_CONCAT_ARGS = 100;

const quoteText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The concat() of the parts, nested when there are more than one call may take. */
function concatOf(pieces: readonly Piece[], indent: string): string {
  const args = pieces.map((piece) =>
    'text' in piece ? quoteText(piece.text) : piece.sql,
  );
  if (args.length === 1 && 'text' in pieces[0]) return args[0];
  const chunks: string[] = [];
  for (let i = 0; i < args.length; i += MAX_CONCAT_ARGS) {
    const chunk = args.slice(i, i + MAX_CONCAT_ARGS);
    chunks.push(
      `concat(\n${indent}  ${chunk.join(`,\n${indent}  `)}\n${indent})`,
    );
  }
  return chunks.length === 1
    ? chunks[0]
    : `concat(\n${indent}  ${chunks.join(`,\n${indent}  `)}\n${indent})`;
}

function writeValue(value: JsonValue, out: ConcatParts, indent: string) {
  switch (value.kind) {
    case 'literal':
      return out.text(value.json);
    case 'string':
      return out.sql(`json_quote(${value.sql})`);
    case 'integer':
      // A NOT NULL integer column's text is its JSON as it is.
      return out.sql(
        value.nullable ? `coalesce(${value.sql}, 'null')` : value.sql,
      );
    case 'id':
      if (value.nullable) {
        return out.sql(
          `CASE WHEN ${value.sql} IS NULL THEN 'null' ELSE concat('"${value.prefix}', ${value.sql}, '"') END`,
        );
      }
      out.text(`"${value.prefix}`);
      out.sql(value.sql);
      return out.text('"');
    case 'flag':
      return out.sql(`CASE WHEN ${value.sql} THEN '"true"' ELSE '"false"' END`);
    case 'stored':
      // json() checks and minifies the stored text.
      return out.sql(`json(${value.sql})`);
    case 'object':
      return writeObject(value.fields, out, indent);
    case 'array': {
      const element = new ConcatParts();
      writeValue(value.of, element, `${indent}    `);
      // Without ORDER BY when the link's index already yields that order: SQLite would otherwise
      // sort each parent's children in a temporary B-tree.
      const orderBy = value.indexOrdered
        ? ''
        : ` ORDER BY ${value.orderBy.join(', ')}`;
      out.text('[');
      // concat() reads the NULL of no rows as '': `[]`.
      out.sql(
        `(SELECT group_concat(${concatOf(element.pieces, `${indent}    `)}, ','${orderBy})\n${indent}   FROM ${value.from} WHERE ${value.link[0]} = ${value.link[1]})`,
      );
      return out.text(']');
    }
    case 'computed':
      throw new Error('a computed value can only be a top-level field');
  }
}

function writeObject(fields: Fields, out: ConcatParts, indent: string) {
  out.text('{');
  fields.forEach(([key, value], i) => {
    out.text(`${i === 0 ? '' : ','}"${checkKey(key)}":`);
    writeValue(value, out, indent);
  });
  out.text('}');
}

export function compileJsonInSql(fields: Fields): SqlJson {
  checkFieldTable(fields);
  const segments: string[] = [];
  const computed: JsonComputed[] = [];
  let out = new ConcatParts();
  out.text('{');
  fields.forEach(([key, value], i) => {
    out.text(`${i === 0 ? '' : ','}"${checkKey(key)}":`);
    if (value.kind === 'computed') {
      segments.push(concatOf(out.pieces, '  '));
      computed.push(value);
      out = new ConcatParts();
    } else {
      writeValue(value, out, '  ');
    }
  });
  out.text('}');
  segments.push(concatOf(out.pieces, '  '));
  return { segments, computed };
}

/** The resource's JSON text from its segments and the computed values that go between them. */
export function joinSegments(
  segments: readonly string[],
  values: readonly string[],
): string {
  let text = segments[0];
  for (let i = 0; i < values.length; i++) text += values[i] + segments[i + 1];
  return text;
}
