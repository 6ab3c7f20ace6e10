import { Histogram, Registry } from 'prom-client';
import { BucketHistogram } from './bucket-histogram';

const DEFINITION = {
  name: 'test_request_duration_seconds',
  help: 'A histogram with "quotes", a \\ and a newline\nin its help',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.5, 1],
};

/** Observations on two label sets: below, on and between the bounds, and above them all. */
const OBSERVED: [string[], number][] = [
  [['/v1/orders/{id}', 'GET', '200'], 0.0004],
  [['/v1/orders/{id}', 'GET', '200'], 0.001],
  [['/v1/orders/{id}', 'GET', '200'], 0.0051],
  [['/v1/check_ins', 'POST', '409'], 0.75],
  [['/v1/orders/{id}', 'GET', '200'], 3],
  [['/v1/check_ins', 'POST', '409'], 0.01],
  [['/v1/orders/{id}', 'GET', '200'], 0.2],
];

async function scrapes(observed: [string[], number][]) {
  const theirs = new Registry();
  const ours = new Registry();
  const reference = new Histogram({
    ...DEFINITION,
    labelNames: [...DEFINITION.labelNames],
    registers: [theirs],
  });
  const histogram = new BucketHistogram(DEFINITION);
  ours.registerMetric(histogram as unknown as Histogram);
  for (const [labels, value] of observed) {
    reference.labels(...labels).observe(value);
    histogram.labels(...labels).observe(value);
  }
  return {
    theirs: await theirs.metrics(),
    ours: await ours.metrics(),
    histogram,
    oursRegistry: ours,
  };
}

describe('BucketHistogram', () => {
  it("scrapes as prom-client's Histogram does, byte for byte, for the same observations", async () => {
    const { theirs, ours } = await scrapes(OBSERVED);
    expect(ours).toBe(theirs);
    expect(ours).toContain(
      'test_request_duration_seconds_bucket{le="0.005",route="/v1/orders/{id}",method="GET",status="200"} 2',
    );
    expect(ours).toContain(
      'test_request_duration_seconds_count{route="/v1/orders/{id}",method="GET",status="200"} 5',
    );
  });

  it('keeps one child per label set, and resets with the registry', async () => {
    const { histogram, oursRegistry } = await scrapes(OBSERVED);
    expect(histogram.labels('/v1/check_ins', 'POST', '409')).toBe(
      histogram.labels('/v1/check_ins', 'POST', '409'),
    );
    oursRegistry.resetMetrics();
    expect((await histogram.get()).values).toEqual([]);
  });

  it('leaves out a value that is not a finite number, so that the sum stays a number', async () => {
    const { theirs, histogram, oursRegistry } = await scrapes(OBSERVED);
    histogram.labels('/v1/check_ins', 'POST', '409').observe(Number.NaN);
    histogram.labels('/v1/check_ins', 'POST', '409').observe(Infinity);
    expect(await oursRegistry.metrics()).toBe(theirs);
  });

  it('refuses label values of another count, and buckets out of order', () => {
    const histogram = new BucketHistogram(DEFINITION);
    expect(() => histogram.labels('/v1/ping', 'GET')).toThrow(
      'test_request_duration_seconds takes 3 label values, got 2',
    );
    expect(
      () => new BucketHistogram({ ...DEFINITION, buckets: [0.1, 0.1, 1] }),
    ).toThrow('test_request_duration_seconds: buckets must be ascending');
  });
});
