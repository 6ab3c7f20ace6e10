import { onlySort, sortOf, sortsBy } from './sort';

describe('list orders', () => {
  const sorts = sortsBy(
    [
      { key: 'created_at', column: 't.created_at', keyed: false },
      { key: 'updated_at', column: 't.updated_at', keyed: true },
    ],
    '-created_at',
  );

  it('offers each key ascending and, with a leading -, descending', () => {
    expect(sorts.options).toEqual({
      created_at: { column: 't.created_at', direction: 'ASC', keyed: false },
      '-created_at': {
        column: 't.created_at',
        direction: 'DESC',
        keyed: false,
      },
      updated_at: { column: 't.updated_at', direction: 'ASC', keyed: true },
      '-updated_at': { column: 't.updated_at', direction: 'DESC', keyed: true },
    });
  });

  it('picks the default when the request names none', () => {
    expect(sortOf(sorts, undefined).name).toBe('-created_at');
    expect(sortOf(sorts, 'updated_at').order.keyed).toBe(true);
    expect(sortOf(onlySort('ev.start_at', 'ASC'), undefined).order).toEqual({
      column: 'ev.start_at',
      direction: 'ASC',
      keyed: false,
    });
  });

  it('fails at start-up on a default that is not an option, and on an unknown sort', () => {
    expect(() =>
      sortsBy(
        [{ key: 'created_at', column: 'o.created_at', keyed: false }],
        'updated_at',
      ),
    ).toThrow('default sort updated_at is not one of the options');
    expect(() => sortOf(sorts, 'nope')).toThrow('unknown sort nope');
  });
});
