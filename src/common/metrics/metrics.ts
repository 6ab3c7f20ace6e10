import { Injectable } from '@nestjs/common';
import {
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  type Histogram,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { sharedWhileRunning, within } from '../bounded-read';
import {
  BucketHistogram,
  type BucketHistogramDefinition,
} from './bucket-histogram';

/** How long a scrape waits for a value read from the database (readGauge) before leaving it out. */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;

/**
 * How often the event loop's delay is sampled for the `nodejs_eventloop_lag_*` gauges: ten times
 * a second gives a scrape every 15 s 150 samples for its percentiles. prom-client's 10 ms woke an
 * idle process a hundred times a second, about 0.5% of a core on the benchmark's VM whatever the
 * load (bench/notes/2026-12-01-metrics-ab-at-once.md).
 */
const EVENT_LOOP_SAMPLE_MS = 100;

const MISNAMED_DEFAULT_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** A metric's definition, without the registry: Metrics registers it in the app's own. */
type Definition<C> = Omit<C, 'registers'>;

/**
 * This app's metrics (docs/OPERATIONS.md, Metrics), in a registry of its own (so apps built side
 * by side, as the tests build them, never share a series), served by GET /metrics.
 *
 * A feature adds a metric with one call on the injected Metrics, in its constructor:
 *
 *     this.refused = metrics.counter({ name: 'boxoffice_x_total', help: '…', labelNames: ['reason'] });
 *
 * and then counts with `this.refused.inc({ reason })`. Label values must come from a small fixed
 * set (a route template, a status, a reason code): never an id, a key or a path as sent.
 *
 * With METRICS_TOKEN unset, metrics are off: the metrics still exist (counting costs next to
 * nothing) but nothing is served, and what costs time on every request or statement (timing
 * them) or in the background (the process's own metrics) is not installed: check `enabled`.
 */
@Injectable()
export class Metrics {
  readonly enabled: boolean;
  private readonly registry = new Registry();

  constructor(config: AppConfig) {
    this.enabled = config.metricsToken !== undefined;
    if (!this.enabled) return;
    // Memory, CPU, event-loop lag, GC pauses, handles: prom-client's standard set, less three
    // gauges named like counters, which `promtool check metrics` refuses (their sums by type,
    // `nodejs_active_handles` and the like, say the same). The event loop's delay is sampled every
    // EVENT_LOOP_SAMPLE_MS rather than prom-client's 10 ms.
    collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
    for (const name of MISNAMED_DEFAULT_METRICS) {
      this.registry.removeSingleMetric(name);
    }
  }

  counter<L extends string = never>(
    definition: Definition<CounterConfiguration<L>>,
  ): Counter<L> {
    return new Counter({ ...definition, registers: [this.registry] });
  }

  /** A gauge; a `collect` function sets it when it is scraped. */
  gauge<L extends string = never>(
    definition: Definition<GaugeConfiguration<L>>,
  ): Gauge<L> {
    return new Gauge({ ...definition, registers: [this.registry] });
  }

  /**
   * A gauge without labels whose value `read` gives at each scrape (a cheap database read): left
   * out of a scrape whose read fails or takes over SCRAPE_READ_TIMEOUT_MS, so that a database
   * outage neither fails nor stalls the scrape (the series is then absent, not stale).
   */
  readGauge(
    definition: Definition<GaugeConfiguration<never>>,
    read: () => Promise<number>,
  ): Gauge {
    const reading = sharedWhileRunning(read);
    return this.gauge({
      ...definition,
      async collect() {
        const value = await within(reading(), SCRAPE_READ_TIMEOUT_MS);
        // Without labels, reset() would leave a 0: remove() leaves no sample at all.
        if (value === undefined) this.remove();
        else this.set(value);
      },
    });
  }

  /**
   * A histogram for the request path: `labels(...)` once per label set, then `observe` on the
   * child (bucket-histogram.ts).
   */
  histogram<L extends string = never>(
    definition: BucketHistogramDefinition<L>,
  ): BucketHistogram<L> {
    const histogram = new BucketHistogram(definition);
    // The Registry reads a metric through get() (and reset()) alone: BucketHistogram has both.
    this.registry.registerMetric(histogram as unknown as Histogram);
    return histogram;
  }

  /** Every metric in Prometheus's text format, running the scrape-time collectors. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
