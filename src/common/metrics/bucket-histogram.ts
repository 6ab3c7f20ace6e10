/** A histogram's definition: prom-client's fields that this one uses. */
export interface BucketHistogramDefinition<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending; `+Inf` is implied. */
  buckets: readonly number[];
}

/** One sample of a scrape, as prom-client's Registry formats it. */
interface Sample {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

/**
 * A histogram for the request path (docs/OPERATIONS.md, Metrics), served by prom-client's Registry
 * beside its own metrics. prom-client's Histogram checks and hashes the label values again on
 * every observation, even through a child made by `labels()`: about 7 µs an observation on the
 * benchmark's VM, two observations a request (bench/notes/2026-11-27-metrics-ab-in-turns.md).
 * Here each label set's child is made once, and an observation adds to an array.
 *
 * The Registry reads a metric through `get()` alone (name, help, type, values; `reset()` for
 * resetMetrics), and the samples are the ones prom-client's Histogram gives, in its order and with
 * its label order: the scrape text is the same, byte for byte (bucket-histogram.spec.ts).
 */
export class BucketHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private readonly children = new Map<string, HistogramChild>();

  constructor(definition: BucketHistogramDefinition<L>) {
    this.name = definition.name;
    this.help = definition.help;
    this.labelNames = definition.labelNames;
    this.bounds = definition.buckets;
    if (this.bounds.some((bound, i) => i > 0 && bound <= this.bounds[i - 1])) {
      throw new Error(`${this.name}: buckets must be ascending`);
    }
  }

  /** The child of these label values, in `labelNames` order; made on first use, then kept. */
  labels(...values: string[]): HistogramChild {
    if (values.length !== this.labelNames.length) {
      throw new Error(
        `${this.name} takes ${this.labelNames.length} label values, got ${values.length}`,
      );
    }
    const key = values.join('\u0000');
    let child = this.children.get(key);
    if (child === undefined) {
      const labels = Object.fromEntries(
        this.labelNames.map((name, i) => [name, values[i]]),
      );
      child = new HistogramChild(this.bounds, labels);
      this.children.set(key, child);
    }
    return child;
  }

  get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    aggregator: 'sum';
    values: Sample[];
  }> {
    const values: Sample[] = [];
    for (const child of this.children.values())
      child.samples(this.name, values);
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values });
  }

  reset(): void {
    this.children.clear();
  }
}

/** One label set's counts: per bucket (the last is above every bound), their sum and count. */
export class HistogramChild {
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(
    private readonly bounds: readonly number[],
    private readonly labels: Record<string, string>,
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Counts `value`; a value that is not a finite number (none is timed so) is left out. */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }

  /** Appends this child's samples: cumulative buckets, `+Inf`, sum, count (prom-client's order). */
  samples(name: string, into: Sample[]): void {
    const sharedLabels = this.labels;
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += this.counts[i];
      into.push({
        labels: { le: bound },
        sharedLabels,
        value: cumulative,
        metricName: `${name}_bucket`,
      });
    });
    into.push(
      {
        labels: { le: '+Inf' },
        sharedLabels,
        value: this.count,
        metricName: `${name}_bucket`,
      },
      { labels: {}, sharedLabels, value: this.sum, metricName: `${name}_sum` },
      {
        labels: {},
        sharedLabels,
        value: this.count,
        metricName: `${name}_count`,
      },
    );
  }
}
