import { bodyPartOf, etagOf, versionPartOf, versionedEtag } from './etag';

describe('etagOf', () => {
  const page = JSON.stringify({ data: [{ id: 'or_1', name: 'Zoë' }] });

  it('is a strong tag that depends only on the bytes', () => {
    expect(etagOf(page)).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(etagOf(page)).toBe(etagOf(Buffer.from(page, 'utf8')));
  });

  it('changes when one byte changes, even at the same length', () => {
    const other = page.replace('or_1', 'or_2');
    expect(other.length).toBe(page.length);
    expect(etagOf(other)).not.toBe(etagOf(page));
  });

  it('changes when only the length changes', () => {
    expect(etagOf('')).not.toBe(etagOf('\0'));
  });
});

describe('versionedEtag', () => {
  const page = JSON.stringify({ data: [] });

  it('is the body tag with the version after a dot, and splits back into both', () => {
    const tag = versionedEtag(page, 'AbC_-12');
    expect(tag).toBe(`${etagOf(page).slice(0, -1)}.AbC_-12"`);
    expect(bodyPartOf(tag)).toBe(bodyPartOf(etagOf(page)));
    expect(versionPartOf(tag)).toBe('AbC_-12');
    expect(versionPartOf(`W/${tag}`)).toBe('AbC_-12');
  });

  it('has no version part when it stands for the bytes alone', () => {
    expect(versionPartOf(etagOf(page))).toBeNull();
    expect(bodyPartOf(`W/${etagOf(page)}`)).toBe(etagOf(page).slice(1, -1));
  });
});
