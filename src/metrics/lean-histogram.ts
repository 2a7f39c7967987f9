// A histogram for the request path: an observation is a bucket search and three additions on a series
// the caller looked up once, and allocates nothing. prom-client's Histogram builds a label object and a
// hash string on every observe, even through `labels()`: measured, that garbage and the hashing were
// most of what metrics cost a request (docs/operations.md, "What they cost"). prom-client still does
// everything else: this registers in its registry as a metric whose get() gives the values in its own
// shape, so the exposition format, the cluster aggregator and promtool see an ordinary histogram.
import { register } from 'prom-client';

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** One series: its labels, and its counts per bucket (not cumulative; the last is above every bound). */
export class Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  private readonly bounds: readonly number[];

  constructor(labels: Readonly<Record<string, string>>, bounds: readonly number[]) {
    this.labels = labels;
    this.bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i += 1;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export class LeanHistogram<Label extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly Label[];
  private readonly bounds: readonly number[];
  private readonly all = new Map<string, Series>();

  constructor(options: { name: string; help: string; labelNames: readonly Label[]; buckets: number[] }) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.bounds = [...options.buckets].sort((a, b) => a - b);
    register.registerMetric(this as never);
  }

  /** The series of these labels, made on first use: look it up once and keep it. */
  series(labels: Record<Label, string>): Series {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let series = this.all.get(key);
    if (!series) {
      series = new Series({ ...labels }, this.bounds);
      this.all.set(key, series);
    }
    return series;
  }

  /** prom-client's registry reads this at each scrape: cumulative buckets, +Inf, sum and count. */
  async get() {
    const values: Value[] = [];
    for (const series of this.all.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({
          labels: { ...series.labels, le },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      });
      values.push(
        { labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${this.name}_bucket` },
        { labels: series.labels, value: series.sum, metricName: `${this.name}_sum` },
        { labels: series.labels, value: series.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** Zeroes every series (prom-client's registry.resetMetrics); the series callers keep stay valid. */
  reset(): void {
    for (const series of this.all.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
