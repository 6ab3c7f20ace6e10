import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { MIGRATIONS } from './data-source-options';

/**
 * A shipped migration never changes (docs/DEVELOPMENT.md, "The schema and the migrations'
 * statements"): it imports nothing a later change could alter, only TypeORM, and writes its SQL
 * out itself. test/database-schema.e2e-spec.ts pins what each one sends; this checks that each
 * file in the folder is one of MIGRATIONS, so that none escapes the pin.
 */
const FOLDER = join(__dirname, 'migrations');
const files = readdirSync(FOLDER).filter((file) => file.endsWith('.ts'));

/** Every module a file imports or re-exports, as written. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(FOLDER, file), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) &&
          node.expression.text === 'require')) &&
      node.arguments.length > 0 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

describe('migrations', () => {
  it.each(files)('%s imports nothing but typeorm', (file) => {
    expect(importsOf(file).filter((module) => module !== 'typeorm')).toEqual(
      [],
    );
  });

  it('every file in the folder is one of MIGRATIONS, in timestamp order', () => {
    const listed = MIGRATIONS.map((migration) => {
      const { name } = new migration();
      const [, stem, timestamp] = /^(.*?)(\d{13})$/.exec(name ?? '') ?? [];
      return `${timestamp}-${stem}.ts`;
    });
    expect(listed).toEqual([...files].sort());
  });
});
