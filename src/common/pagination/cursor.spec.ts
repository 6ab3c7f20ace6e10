import { MAX_CURSOR_KEY, formatCursor, parseCursor } from './cursor';

describe('cursors', () => {
  it('reads a plain id in any order, and an id with its key only in a keyed order', () => {
    expect(parseCursor('or_', 'or_9', false)).toEqual({ id: 9, key: null });
    expect(parseCursor('or_', 'or_9', true)).toEqual({ id: 9, key: null });
    expect(parseCursor('or_', 'or_9@1786645321', true)).toEqual({
      id: 9,
      key: 1786645321,
    });
    expect(parseCursor('or_', 'or_9@0', true)).toEqual({ id: 9, key: 0 });
    expect(parseCursor('or_', 'or_9@1786645321', false)).toBeNull();
  });

  it.each([
    'or_9@',
    'or_9@-1',
    'or_9@01',
    'or_9@1.5',
    'or_9@1@2',
    'or_9@ 1',
    '@1786645321',
    'ev_9@1786645321',
    'or_09@1786645321',
    `or_9@${MAX_CURSOR_KEY + 1}`,
    'or_0',
  ])('refuses %p', (value) => {
    expect(parseCursor('or_', value, true)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(parseCursor('or_', ['or_1'], true)).toBeNull();
    expect(parseCursor('or_', undefined, true)).toBeNull();
  });

  it('formats what it reads', () => {
    const position = { id: 9, key: 1786645321 };
    expect(formatCursor('or_', position, false)).toBe('or_9');
    expect(formatCursor('or_', position, true)).toBe('or_9@1786645321');
    expect(
      parseCursor('or_', formatCursor('or_', position, true), true),
    ).toEqual(position);
  });
});
