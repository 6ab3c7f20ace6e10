import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The documents say each thing once and link the rest (docs/API.md, Extending this document), so
// a renamed heading or a moved section breaks links nobody sees: every relative link and anchor in
// the README, docs/ and bench/ must resolve, every repository path they name in code must exist,
// and bench/notes/README.md must list every note. The documents keep their kinds apart: the
// reference (docs/API.md) holds no section of the design (docs/DESIGN.md), and bench/README.md
// keeps one targets table, the generated one, in at most 400 lines.

const ROOT = join(__dirname, '..');
const NOTES = join(ROOT, 'bench', 'notes');

const DOCUMENTS = [
  'README.md',
  ...['docs', 'bench', 'bench/notes'].flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${folder}/${name}`),
  ),
];

/** Lines outside fenced code blocks, with their numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  let fenced = false;
  return text.split('\n').flatMap((line, index) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: index + 1, text: line }];
  });
}

/**
 * The anchors GitHub gives a document's headings: lower case, punctuation dropped (letters,
 * digits, `_` and `-` stay), spaces as `-`, and `-1`, `-2`, … after a repeated one. A regular
 * expression rather than a dependency: the rule is one line, and our headings are plain.
 */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  document: string;
  line: number;
  target: string;
}

/** Relative links of a document, outside code blocks and code spans. */
function linksOf(document: string): Link[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return proseLines(text).flatMap(({ line, text: prose }) =>
    [...prose.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1])
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ document, line, target })),
  );
}

/** Why a link does not resolve, or null when it does. */
function brokenBecause(document: string, target: string): string | null {
  const [path, anchor] = target.split('#');
  const file =
    path === ''
      ? join(ROOT, document)
      : resolve(dirname(join(ROOT, document)), path);
  if (!existsSync(file)) return `no file ${relative(ROOT, file)}`;
  if (anchor === undefined) return null;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return 'an anchor on a file that is not Markdown';
  return anchorsOf(file).has(anchor)
    ? null
    : `no heading #${anchor} in ${relative(ROOT, file)}`;
}

/** The folders of the repository a document names paths in. */
const REPOSITORY_PATH =
  /^(?:src|test|bench|dev|door|docs|scripts|examples|client|seeds)\//;

/**
 * Folders git ignores (`.gitignore`): what a command writes there (the benchmark's databases and
 * outputs, a build) is never in a checkout, so a document may name it before it exists.
 */
const WRITTEN_BY_COMMANDS = /(?:^|\/)(?:data|dist)(?:\/|$)/;

/** Whether a path with `*` wildcards matches something in the repository. */
function globMatches(pattern: string): boolean {
  let found = [ROOT];
  for (const part of pattern.split('/').filter((p) => p !== '')) {
    const name = new RegExp(
      `^${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`,
    );
    found = found.flatMap((folder) =>
      existsSync(folder) && statSync(folder).isDirectory()
        ? readdirSync(folder)
            .filter((entry) => name.test(entry))
            .map((entry) => join(folder, entry))
        : [],
    );
  }
  return found.length > 0;
}

/**
 * The repository paths a document names in code spans (`src/…`, `bench/notes/…`, a command's
 * `dev/x.cli.ts`), outside code blocks, without a trailing `:line`. A placeholder (`<feature>`,
 * `{id}`, `…`) names its folder: the part before it must exist; a `*` must match something.
 */
function pathsOf(document: string): Link[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return proseLines(text).flatMap(({ line, text: prose }) =>
    [...prose.matchAll(/`([^`]+)`/g)]
      .flatMap((span) => span[1].split(/\s+/))
      .map((word) =>
        word
          .replace(/^[("']+/, '')
          .replace(/[)"',.;]+$/, '')
          .replace(/(?::\d+(?:-\d+)?)+$/, '')
          .replace(/[#?].*$/, ''),
      )
      .filter((word) => REPOSITORY_PATH.test(word))
      .map((target) => ({ document, line, target })),
  );
}

/** Whether a path a document names is in the repository (see pathsOf). */
function pathExists(target: string): boolean {
  const placeholder = target.search(/[<{…]/);
  const path =
    placeholder < 0
      ? target
      : target.slice(0, target.lastIndexOf('/', placeholder) + 1);
  if (WRITTEN_BY_COMMANDS.test(path)) return true;
  return path.includes('*') ? globMatches(path) : existsSync(join(ROOT, path));
}

/** A document's headings, as written. */
function headingsOf(document: string): string[] {
  return proseLines(readFileSync(join(ROOT, document), 'utf8')).flatMap(
    ({ text }) => {
      const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
      return heading ? [heading[1]] : [];
    },
  );
}

describe('the documents link what they do not repeat', () => {
  it('resolves every relative link and anchor', () => {
    const links = DOCUMENTS.flatMap(linksOf);
    expect(links.length).toBeGreaterThan(100);
    const broken = links.flatMap(({ document, line, target }) => {
      const why = brokenBecause(document, target);
      return why === null ? [] : [`${document}:${line} (${target}): ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const paths = DOCUMENTS.flatMap(pathsOf);
    expect(paths.length).toBeGreaterThan(100);
    const missing = paths
      .filter(({ target }) => !pathExists(target))
      .map(({ document, line, target }) => `${document}:${line} ${target}`);
    expect(missing).toEqual([]);
  });

  it('keeps the design out of the reference: docs/API.md has no section of docs/DESIGN.md', () => {
    const design = headingsOf('docs/DESIGN.md');
    expect(design).toEqual(
      expect.arrayContaining([
        'Reliability',
        'Database faults',
        'The stamp and the sync horizon',
        'Change feed design: ids in commit order',
        'Decisions',
      ]),
    );
    // The one heading both hold: the reference's section on the sync recipe, whose design
    // DESIGN.md's section of the same name gives.
    const shared = headingsOf('docs/API.md').filter(
      (heading) =>
        design.includes(heading) &&
        heading !== 'Incremental sync and the change feed',
    );
    expect(shared).toEqual([]);
  });

  it('keeps bench/README.md to one targets table, the generated one, in at most 400 lines', () => {
    const text = readFileSync(join(ROOT, 'bench', 'README.md'), 'utf8');
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(400);
    const lines = text.split('\n');
    // A table's header row is the line before its `| --- |` row; a targets table has a `target`
    // column.
    const targetTables = lines.flatMap((line, index) =>
      /^\|(?:\s*:?-+:?\s*\|)+\s*$/.test(lines[index + 1] ?? '') &&
      line
        .split('|')
        .map((cell) => cell.trim().toLowerCase())
        .includes('target')
        ? [index]
        : [],
    );
    expect(targetTables).toHaveLength(1);
    expect(lines[targetTables[0] - 1]).toBe('<!-- bench:targets:start -->');
  });

  it('lists every note in the notes index', () => {
    const index = readFileSync(join(NOTES, 'README.md'), 'utf8');
    const unlisted = readdirSync(NOTES)
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .filter((name) => !index.includes(`](${name})`));
    expect(unlisted).toEqual([]);
  });
});
