import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** One queue's job counts by state, as read from Redis at scrape time (null = unreadable now). */
/** Seconds the usage rollups trail behind now (null before the first rollup), read at scrape time. */
export type RollupLag = () => Promise<number | null>;

export type QueueDepths = () => Promise<{ queue: string; counts: Record<string, number> | null }[]>;

/**
 * The worker's Prometheus registry (prom-client): the default process and Node metrics (CPU,
 * memory, event-loop lag, GC, handles), the job and delivery counters, the attempt latency
 * histogram, and the queue depths as a gauge whose collector reads Redis on each scrape. One
 * registry per worker, so several workers in one process (tests) keep their own series.
 */
export function createWorkerMetrics(opts: { queueDepths?: QueueDepths; rollupLag?: RollupLag } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const { queueDepths, rollupLag } = opts;
  const backendErrors = new Counter({
    name: "breakwater_worker_backend_errors_total",
    help: "Redis and Postgres failures seen by the worker (connection errors, unreadable scrape-time reads)",
    labelNames: ["backend"] as const,
    registers,
  });
  for (const backend of ["redis", "postgres"]) backendErrors.inc({ backend }, 0);
  return {
    registry,
    backendErrors,
    rollupLag: new Gauge({
      name: "breakwater_usage_rollup_lag_seconds",
      help: "Seconds between now and the usage rollup watermark (NaN before the first rollup or when Postgres is unreadable)",
      registers,
      async collect() {
        if (!rollupLag) return;
        // NaN (no value in PromQL) when unknown: 0 would read as "caught up".
        try {
          this.set((await rollupLag()) ?? Number.NaN);
        } catch {
          this.set(Number.NaN);
          backendErrors.inc({ backend: "postgres" });
        }
      },
    }),
    queueJobs: new Gauge({
      name: "breakwater_queue_jobs",
      help: "Jobs in each queue by state (delayed included)",
      labelNames: ["queue", "state"] as const,
      registers,
      async collect() {
        if (!queueDepths) return;
        const depths = await queueDepths();
        this.reset();
        for (const { queue, counts } of depths) {
          if (!counts) {
            backendErrors.inc({ backend: "redis" });
            continue;
          }
          for (const [state, value] of Object.entries(counts)) this.set({ queue, state }, value);
        }
      },
    }),
    jobs: new Counter({
      name: "breakwater_worker_jobs_total",
      help: "Jobs finished by this worker, by queue and result",
      labelNames: ["queue", "result"] as const,
      registers,
    }),
    deliveries: new Counter({
      name: "breakwater_webhook_deliveries_total",
      help: "Webhook delivery job runs by backend and outcome (delivered, failed, retry, rejected, no_endpoints…)",
      labelNames: ["backend", "outcome"] as const,
      registers,
    }),
    attempts: new Counter({
      name: "breakwater_webhook_attempts_total",
      help: "HTTP attempts to receivers by result",
      labelNames: ["result"] as const,
      registers,
    }),
    attemptLatency: new Histogram({
      name: "breakwater_webhook_attempt_duration_seconds",
      help: "Latency of webhook HTTP attempts (until the receiver's status line)",
      labelNames: ["result"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    }),
    expired: new Counter({
      name: "breakwater_breaker_episodes_expired_total",
      help: "Breaker episodes closed because their instance went stale",
      registers,
    }),
    snapshotsPruned: new Counter({
      name: "breakwater_breaker_snapshots_pruned_total",
      help: "Breaker snapshots of instances silent past their retention, deleted by the worker",
      registers,
    }),
    transitionsPruned: new Counter({
      name: "breakwater_breaker_transitions_pruned_total",
      help: "Breaker transitions older than their plan's retention_days, deleted by the worker",
      registers,
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/** The current value of one labelled series of a counter (0 when it was never incremented). */
export async function counterValue<T extends string>(
  counter: Counter<T>,
  labels: Partial<Record<T, string>>,
): Promise<number> {
  const { values } = await counter.get();
  const match = values.find((v) =>
    Object.entries(labels).every(([k, want]) => (v.labels as Record<string, unknown>)[k] === want),
  );
  return match?.value ?? 0;
}
