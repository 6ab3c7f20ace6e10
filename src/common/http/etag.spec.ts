import { etagOf } from './etag';

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
