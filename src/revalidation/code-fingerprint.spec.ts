import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeFingerprint } from './code-fingerprint';

describe('codeFingerprint', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'fingerprint-'));
    writeFileSync(join(root, 'package.json'), '{"version":"1.0.0"}');
    mkdirSync(join(root, 'src', 'orders'), { recursive: true });
    writeFileSync(join(root, 'src', 'main.js'), 'main');
    writeFileSync(join(root, 'src', 'orders', 'fields.js'), 'fields');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const of = () => codeFingerprint(join(root, 'src'));

  it('is the same for the same tree, read again', () => {
    expect(of()).toMatch(/^[\w-]{16}$/);
    expect(of()).toBe(of());
  });

  it.each([
    [
      'a file of the tree changes',
      () => writeFileSync(join(root, 'src', 'orders', 'fields.js'), 'field'),
    ],
    ['a file is added', () => writeFileSync(join(root, 'src', 'extra.js'), '')],
    [
      'a file is renamed',
      () => {
        rmSync(join(root, 'src', 'main.js'));
        writeFileSync(join(root, 'src', 'index.js'), 'main');
      },
    ],
    [
      'the manifest changes',
      () => writeFileSync(join(root, 'package.json'), '{"version":"1.0.1"}'),
    ],
    [
      'a lock appears',
      () => writeFileSync(join(root, 'package-lock.json'), '{}'),
    ],
  ])('changes when %s', (_, change) => {
    const before = of();
    change();
    expect(of()).not.toBe(before);
  });
});
