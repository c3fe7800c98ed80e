import type { BreakerIntakeCounts } from "@breakwater/core";
import { Registry } from "prom-client";

/**
 * Latency buckets (seconds) around the check's 1 s budget: fine below 10 ms where a warm check
 * lives, coarse up to the deadline. A request slower than 1 s lands in +Inf only.
 */
export const SDK_LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
] as const;

/** Which store a backend fault came from (an ambiguous socket error is `unknown`). */
export type Backend = "redis" | "postgres" | "unknown";
const BACKENDS: readonly Backend[] = ["redis", "postgres", "unknown"];

/** HTTP statuses are 100–599: one slot each, anything else in slot 0 (reported as "other"). */
const STATUS_SLOTS = 600;

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/**
 * A metric prom-client's Registry can print whose values live in typed arrays: recording is an
 * index and an add, with no label object, hash string or lookup per request. The values are
 * only turned into labelled series when scraped.
 */
class ArrayMetric {
  readonly aggregator = "sum" as const;
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "histogram" | "gauge",
    private readonly values: () => MetricValue[],
  ) {}
  get() {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: this.values(),
    };
  }
  reset() {}
}

/**
 * The SDK API's metrics of one process: requests by endpoint and status, their latency, and the
 * backend faults answered as 503s. `endpoints` are the router's route names (plus one for paths
 * no route matches); the router records by index.
 */
export function createWireMetrics(endpoints: readonly string[]) {
  const n = endpoints.length;
  const buckets = SDK_LATENCY_BUCKETS;
  const nb = buckets.length;
  const requests = new Float64Array(n * STATUS_SLOTS);
  // Per endpoint: one count per bucket (not cumulative; +Inf last), then the sum of seconds.
  const stride = nb + 2;
  const latency = new Float64Array(n * stride);
  const backendErrors = new Float64Array(BACKENDS.length);

  const registry = new Registry();
  registry.registerMetric(
    new ArrayMetric(
      "breakwater_sdk_requests_total",
      "SDK API requests answered, by endpoint and HTTP status",
      "counter",
      () => {
        const out: MetricValue[] = [];
        for (let e = 0; e < n; e++) {
          for (let s = 0; s < STATUS_SLOTS; s++) {
            const value = requests[e * STATUS_SLOTS + s]!;
            if (value > 0)
              out.push({ value, labels: { endpoint: endpoints[e]!, status: s === 0 ? "other" : s } });
          }
        }
        return out;
      },
    ) as never,
  );
  registry.registerMetric(
    new ArrayMetric(
      "breakwater_sdk_request_duration_seconds",
      "SDK API request latency, from routing to the answer being ready (Node's socket write excluded)",
      "histogram",
      () => {
        const out: MetricValue[] = [];
        const name = "breakwater_sdk_request_duration_seconds";
        for (let e = 0; e < n; e++) {
          const base = e * stride;
          let cumulative = 0;
          for (let b = 0; b <= nb; b++) cumulative += latency[base + b]!;
          if (cumulative === 0) continue; // an endpoint never called prints nothing
          const endpoint = endpoints[e]!;
          let running = 0;
          for (let b = 0; b < nb; b++) {
            running += latency[base + b]!;
            out.push({ metricName: `${name}_bucket`, value: running, labels: { le: buckets[b]!, endpoint } });
          }
          out.push({ metricName: `${name}_bucket`, value: cumulative, labels: { le: "+Inf", endpoint } });
          out.push({ metricName: `${name}_sum`, value: latency[base + nb + 1]!, labels: { endpoint } });
          out.push({ metricName: `${name}_count`, value: cumulative, labels: { endpoint } });
        }
        return out;
      },
    ) as never,
  );
  registry.registerMetric(
    new ArrayMetric(
      "breakwater_sdk_backend_errors_total",
      "SDK API requests answered 503 because a store failed: redis (budget unavailable), postgres, or unknown",
      "counter",
      () => BACKENDS.map((backend, i) => ({ value: backendErrors[i]!, labels: { backend } })),
    ) as never,
  );

  return {
    registry,
    endpoints,
    /**
     * Exports a breaker intake's counts (read at scrape time): reports by path, heartbeat rows
     * group-committed or replayed, failed flushes and heartbeats waiting for the next flush.
     */
    watchBreakers(counts: BreakerIntakeCounts): void {
      const series = (name: string, help: string, type: "counter" | "gauge", values: () => MetricValue[]) =>
        registry.registerMetric(new ArrayMetric(name, help, type, values) as never);
      series(
        "breakwater_breaker_reports_total",
        "Breaker reports by path: heartbeat (Redis, group-committed), late (changed nothing), transactional (state changes, first and stale reports)",
        "counter",
        () => [
          { value: counts.heartbeat, labels: { path: "heartbeat" } },
          { value: counts.late, labels: { path: "late" } },
          { value: counts.slow, labels: { path: "transactional" } },
        ],
      );
      series(
        "breakwater_breaker_heartbeat_rows_total",
        "Buffered heartbeats written to Postgres: written by the group commit, or replayed through the transactional path when the stored state differed",
        "counter",
        () => [
          { value: counts.flushedRows, labels: { result: "written" } },
          { value: counts.replayedRows, labels: { result: "replayed" } },
        ],
      );
      series(
        "breakwater_breaker_heartbeat_flush_failures_total",
        "Heartbeat flushes that failed (their rows wait for the next flush)",
        "counter",
        () => [{ value: counts.flushFailures, labels: {} }],
      );
      series(
        "breakwater_breaker_heartbeats_buffered",
        "Heartbeats waiting for the next flush (at most one per instance and provider)",
        "gauge",
        () => [{ value: counts.buffered, labels: {} }],
      );
    },
    /** Records one answered request: `startedMs` is the performance.now() taken when it was routed. */
    observe(endpoint: number, status: number, startedMs: number): void {
      requests[endpoint * STATUS_SLOTS + (status >= 100 && status < STATUS_SLOTS ? status : 0)]! += 1;
      const seconds = (performance.now() - startedMs) / 1000;
      const base = endpoint * stride;
      let b = 0;
      while (b < nb && seconds > buckets[b]!) b++;
      latency[base + b]! += 1;
      latency[base + nb + 1]! += seconds;
    },
    /** Records a request answered without entering a handler (405, 404): no latency worth a sample. */
    count(endpoint: number, status: number): void {
      requests[endpoint * STATUS_SLOTS + (status >= 100 && status < STATUS_SLOTS ? status : 0)]! += 1;
    },
    /** Records one 503 caused by a store. */
    backendError(backend: Backend): void {
      backendErrors[BACKENDS.indexOf(backend)]! += 1;
    },
  };
}
export type WireMetrics = ReturnType<typeof createWireMetrics>;
