import {
  RESOURCE,
  type ResourceIdentity,
  exampleId,
  itemPathOf,
  pathOf,
} from './resource-identities';

const identities: [string, ResourceIdentity][] = Object.entries(RESOURCE);

describe('resource identities', () => {
  it('gives every resource its own prefix, a word and an underscore', () => {
    const prefixes = identities.map(([, r]) => r.prefix);
    expect(prefixes.filter((p) => !/^[a-z]+_$/.test(p))).toEqual([]);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('gives no two resources one path, one noun or one change family', () => {
    for (const of of [
      (r: ResourceIdentity) => r.segment,
      (r: ResourceIdentity) => r.noun,
      (r: ResourceIdentity) => r.change?.family,
    ]) {
      const values = identities.map(([, r]) => of(r)).filter(Boolean);
      expect(new Set(values).size).toBe(values.length);
    }
  });

  it('makes ids, examples and paths from the prefix and the segment', () => {
    expect(exampleId(RESOURCE.order)).toBe('or_1');
    expect(pathOf(RESOURCE.eventSeries)).toBe('/v1/event_series');
    expect(itemPathOf(RESOURCE.checkIn, 7)).toBe('/v1/check_ins/ci_7');
  });
});
