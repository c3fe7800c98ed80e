/** A minimal Prometheus registry: the worker needs a handful of series, not a client library. */

type Labels = Record<string, string>;

const key = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map(
      (k) => `${k}="${String(labels[k]).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`,
    )
    .join(",");

export class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const k = key(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }
  get(labels: Labels = {}): number {
    return this.values.get(key(labels)) ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [k, v] of this.values) lines.push(`${this.name}${k ? `{${k}}` : ""} ${v}`);
    return lines.join("\n");
  }
}

export class Histogram {
  private readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly bounds: number[],
  ) {}
  observe(labels: Labels, value: number): void {
    const k = key(labels);
    let s = this.series.get(k);
    if (!s) {
      s = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.series.set(k, s);
    }
    for (const [i, b] of this.bounds.entries()) if (value <= b) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [k, s] of this.series) {
      const sep = k ? `${k},` : "";
      for (const [i, b] of this.bounds.entries())
        lines.push(`${this.name}_bucket{${sep}le="${b}"} ${s.buckets[i]}`);
      lines.push(`${this.name}_bucket{${sep}le="+Inf"} ${s.count}`);
      lines.push(`${this.name}_sum${k ? `{${k}}` : ""} ${s.sum}`);
      lines.push(`${this.name}_count${k ? `{${k}}` : ""} ${s.count}`);
    }
    return lines.join("\n");
  }
}

/** Gauges are read at scrape time (queue depth lives in Redis, not in this process). */
export function renderGauge(
  name: string,
  help: string,
  samples: { labels: Labels; value: number }[],
): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`];
  for (const s of samples) lines.push(`${name}{${key(s.labels)}} ${s.value}`);
  return lines.join("\n");
}

/** The worker's series. */
export function createWorkerMetrics() {
  return {
    jobs: new Counter("breakwater_worker_jobs_total", "Jobs finished by this worker, by queue and result"),
    deliveries: new Counter(
      "breakwater_webhook_deliveries_total",
      "Webhook delivery job runs by backend and outcome (delivered, failed, retry, rejected, no_endpoints…)",
    ),
    attempts: new Counter("breakwater_webhook_attempts_total", "HTTP attempts to receivers by result"),
    attemptLatency: new Histogram(
      "breakwater_webhook_attempt_duration_seconds",
      "Latency of webhook HTTP attempts (until the receiver's status line)",
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    ),
    expired: new Counter(
      "breakwater_breaker_episodes_expired_total",
      "Breaker episodes closed because their instance went stale",
    ),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
