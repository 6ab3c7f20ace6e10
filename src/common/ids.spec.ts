import { parsePrefixedId } from './ids';

describe('parsePrefixedId', () => {
  it.each([
    ['or_1', 'or_', 1],
    ['or_42', 'or_', 42],
    ['ev_1234567890', 'ev_', 1_234_567_890],
    ['or_2147483647', 'or_', 2_147_483_647],
  ])('reads %s (prefix %s) as %i', (value, prefix, id) => {
    expect(parsePrefixedId(prefix, value)).toBe(id);
  });

  it.each([
    ['another prefix', 'ev_1'],
    ['upper case', 'OR_1'],
    ['no number', 'or_'],
    ['zero', 'or_0'],
    ['leading zero', 'or_01'],
    ['sign', 'or_-1'],
    ['plus', 'or_+1'],
    ['decimal', 'or_1.0'],
    ['exponent', 'or_1e3'],
    ['trailing text', 'or_1x'],
    ['leading space', ' or_1'],
    ['trailing space', 'or_1 '],
    ['trailing newline', 'or_1\n'],
    ['inner space', 'or_ 1'],
    ['past 32 bits', 'or_2147483648'],
    ['eleven digits', 'or_99999999999'],
    ['non-ASCII digits', 'or_١٢'],
    ['empty', ''],
    ['bare number', '1'],
  ])('rejects %s (%s)', (_, value) => {
    expect(parsePrefixedId('or_', value)).toBeNull();
  });

  it.each([undefined, null, 1, ['or_1'], { id: 'or_1' }])(
    'rejects a non-string (%p)',
    (value) => {
      expect(parsePrefixedId('or_', value)).toBeNull();
    },
  );
});
