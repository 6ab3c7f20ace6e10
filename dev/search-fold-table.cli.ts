// Prints the search fold's table (dev/search-fold-table.ts) as a migration holds it: the lines of
// a string array whose join is the JSON text, and the Unicode version this Node.js folds by.
//   npx ts-node --transpile-only dev/search-fold-table.cli.ts > table.txt
import { searchFoldTable, tableJsonLines } from './search-fold-table';

const table = searchFoldTable();
console.log(
  `// ${table.size} code points, Unicode ${process.versions.unicode}`,
);
for (const line of tableJsonLines(table, 64)) {
  console.log(`  '${line.replaceAll('\\', '\\\\')}',`);
}
