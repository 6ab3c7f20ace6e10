import fc from 'fast-check';
import { droppedFormFields, repeatedJsonKey } from './repeated-fields';

describe('repeatedJsonKey', () => {
  it('finds a key given twice in one object, as decoded', () => {
    expect(repeatedJsonKey('{"a":1,"a":2}')).toBe('a');
    expect(repeatedJsonKey('{"a":1, "b":2 ,\n "\\u0061" : 3}')).toBe('a');
    expect(repeatedJsonKey('{"x":{"a":1,"b":{"c":[{"d":1,"d":2}]}}}')).toBe(
      'd',
    );
    expect(repeatedJsonKey('{"a\\"b":1,"a\\"b":2}')).toBe('a"b');
    expect(repeatedJsonKey('{"__proto__":1,"__proto__":2}')).toBe('__proto__');
  });

  it('passes a key used once per object, in strings, values and arrays', () => {
    for (const text of [
      '{}',
      '{"a":1,"b":2}',
      '{"a":{"a":{"a":1}}}',
      '{"a":"a","b":"a"}',
      '{"a":"\\"a\\":1,\\"a\\":2"}',
      '[{"a":1},{"a":2}]',
      '{"a":[{"b":1},{"b":2}],"b":3}',
      '{"a":["a","a"]}',
      '"a"',
      '1',
    ]) {
      expect([text, repeatedJsonKey(text)]).toEqual([text, null]);
    }
  });

  it('agrees with JSON.parse on any JSON object: a key is repeated exactly when parse loses one', () => {
    const key = fc.constantFrom('a', 'b', 'c', '\u00e9', '"', '\\');
    const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), key);
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }),
        fc
          .array(fc.tuple(key, tie('value')), { maxLength: 4 })
          .map((pairs) => ({ pairs })),
      ),
    })).value;
    /** The JSON text of `v`, each object written from its pairs, repeats and all. */
    const text = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(text).join(',')}]`;
      if (v !== null && typeof v === 'object' && 'pairs' in v) {
        const pairs = (v as { pairs: [string, unknown][] }).pairs;
        return `{${pairs.map(([k, x]) => `${JSON.stringify(k)}:${text(x)}`).join(',')}}`;
      }
      return JSON.stringify(v);
    };
    const repeats = (v: unknown): boolean => {
      if (Array.isArray(v)) return v.some(repeats);
      if (v !== null && typeof v === 'object' && 'pairs' in v) {
        const pairs = (v as { pairs: [string, unknown][] }).pairs;
        return (
          new Set(pairs.map(([k]) => k)).size < pairs.length ||
          pairs.some(([, x]) => repeats(x))
        );
      }
      return false;
    };
    fc.assert(
      fc.property(value, (v) => {
        const json = text(v);
        expect(repeatedJsonKey(json) !== null).toBe(repeats(v));
      }),
      { numRuns: 500 },
    );
  });
});

describe('droppedFormFields', () => {
  it('names __proto__ however it is encoded, and nothing else', () => {
    expect(droppedFormFields('__proto__=1&a=2')).toEqual(['__proto__']);
    expect(droppedFormFields('%5F%5Fproto%5F%5F=1&__proto__=2')).toEqual([
      '__proto__',
    ]);
    expect(droppedFormFields('a=1&constructor=2&__proto__x=3')).toEqual([]);
  });
});
