import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { RESOURCE } from '../src/common/resources/resource-identities';

// Each resource's id prefix is declared once (src/common/resources/resource-identities.ts) and
// read from there: a prefix written as a literal anywhere else in src/ (`'or_'`, `"it_"`,
// `` `ev_${id}` ``, an example `ev_1`, `'tt_' ||` in SQL, `^chg_(0|…)$` in a pattern) is a second
// declaration that can drift. Comments are prose and may name them; tests may spell them, and so
// may the shipped migrations, which never change and import nothing a later change could alter.

const ROOT = join(__dirname, '..');
const DECLARATIONS = 'src/common/resources/resource-identities.ts';

const PREFIXES = Object.values(RESOURCE).map((resource) => resource.prefix);

/** A prefix as a word of its own: not the tail of a longer name, not the head of one. */
const PREFIX_LITERAL = new RegExp(
  `(?<![A-Za-z0-9_])(${PREFIXES.join('|')})(?![A-Za-z])`,
  'g',
);

/** The id-prefix literals in one source text: its strings, templates and regular expressions. */
export function prefixLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let literal: string | null = null;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      literal = node.text;
    } else if (ts.isRegularExpressionLiteral(node)) {
      literal = node.text;
    }
    if (literal !== null) {
      for (const match of literal.matchAll(PREFIX_LITERAL)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1}: ${match[1]} in ${node.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .map((name) => `src/${name.split('\\').join('/')}`)
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.spec.ts') &&
        !file.startsWith('src/database/migrations/') &&
        file !== DECLARATIONS,
    )
    .sort();
}

describe('id prefixes are declared once', () => {
  it('finds no id-prefix literal in src/ outside the declarations', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.flatMap((file) =>
        prefixLiterals(
          relative(ROOT, join(ROOT, file)),
          readFileSync(join(ROOT, file), 'utf8'),
        ),
      ),
    ).toEqual([]);
  });

  it('finds each way of spelling one, and leaves comments and other names alone', () => {
    const text = [
      "const a = parsePrefixedId('or_', value);",
      'const b = "it_";',
      'const c = `ev_${id}`;',
      "const d = { example: 'es_1' };",
      "const e = `CASE WHEN t THEN 'tt_' || li.ticket_type_id END`;",
      'const f = /^chg_(0|[1-9]\\d*)$/;',
      "const g = 'resource_id must be a resource id (ci_<number>)';",
      '// a comment may name or_ and `wh_` ids',
      "const h = ['credit_card', 'issued_tickets', 'trg_events_sync', 'es.id'];",
    ].join('\n');
    expect(
      prefixLiterals('sample.ts', text).map((line) =>
        line.replace(/ in .*/, ''),
      ),
    ).toEqual([
      'sample.ts:1: or_',
      'sample.ts:2: it_',
      'sample.ts:3: ev_',
      'sample.ts:4: es_',
      'sample.ts:5: tt_',
      'sample.ts:6: chg_',
      'sample.ts:7: ci_',
    ]);
  });
});
