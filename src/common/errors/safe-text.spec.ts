import { quoteIfSafe } from './safe-text';

describe('quoteIfSafe', () => {
  it.each([
    'created_at.gtt',
    'limit[]',
    '/v1/orders/or_1',
    'a@b.c',
    'x'.repeat(100),
  ])('repeats plain text: %s', (text) => {
    expect(quoteIfSafe(text, 'OTHER')).toBe(text);
  });

  it.each(["or_1' OR 1=1", 'a b', '<script>', '', 'x'.repeat(101), 'é'])(
    'replaces anything else: %j',
    (text) => {
      expect(quoteIfSafe(text, 'OTHER')).toBe('OTHER');
    },
  );
});
