import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The documents say each thing once and link the rest (docs/API.md, Extending this document), so
// a renamed heading or a moved section breaks links nobody sees: every relative link and anchor in
// the README, docs/ and bench/ must resolve, and bench/notes/README.md must list every note.

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

  it('lists every note in the notes index', () => {
    const index = readFileSync(join(NOTES, 'README.md'), 'utf8');
    const unlisted = readdirSync(NOTES)
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .filter((name) => !index.includes(`](${name})`));
    expect(unlisted).toEqual([]);
  });
});
