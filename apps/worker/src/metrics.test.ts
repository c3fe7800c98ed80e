import { describe, expect, it } from "vitest";
import { counterValue, createWorkerMetrics } from "./metrics";

describe("worker metrics", () => {
  it("exposes process and event-loop metrics, the worker's series, and queue depths read at scrape time", async () => {
    let waiting = 3;
    const m = createWorkerMetrics({
      queueDepths: async () => [
        { queue: "webhook-deliver", counts: { waiting, delayed: 1 } },
        { queue: "breaker-stale-sweep", counts: null },
      ],
    });
    m.deliveries.inc({ backend: "builtin", outcome: "delivered" });
    m.attemptLatency.observe({ result: "success" }, 0.02);
    let text = await m.registry.metrics();
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toContain('breakwater_queue_jobs{queue="webhook-deliver",state="waiting"} 3');
    expect(text).toContain('breakwater_queue_jobs{queue="webhook-deliver",state="delayed"} 1');
    expect(text).not.toContain('queue="breaker-stale-sweep"');
    expect(text).toContain('breakwater_webhook_deliveries_total{backend="builtin",outcome="delivered"} 1');
    expect(text).toContain(
      'breakwater_webhook_attempt_duration_seconds_bucket{le="0.025",result="success"} 1',
    );
    expect(await counterValue(m.deliveries, { backend: "builtin", outcome: "delivered" })).toBe(1);
    expect(await counterValue(m.deliveries, { backend: "svix", outcome: "retry" })).toBe(0);
    // The gauge is re-read on every scrape.
    waiting = 0;
    text = await m.registry.metrics();
    expect(text).toContain('breakwater_queue_jobs{queue="webhook-deliver",state="waiting"} 0');
  });

  it("reads the rollup lag at scrape time, and counts store failures instead of failing the scrape", async () => {
    let lag: number | null | Error = null;
    const m = createWorkerMetrics({
      queueDepths: async () => [{ queue: "usage-rollup", counts: null }],
      rollupLag: async () => {
        if (lag instanceof Error) throw lag;
        return lag;
      },
    });
    // NaN (prom-client prints "Nan"; Prometheus parses it case-insensitively): no value, not "caught up".
    let text = await m.registry.metrics();
    expect(text).toMatch(/^breakwater_usage_rollup_lag_seconds nan$/im);
    expect(await counterValue(m.backendErrors, { backend: "redis" })).toBe(1); // the unreadable queue
    expect(await counterValue(m.backendErrors, { backend: "postgres" })).toBe(0);
    expect(text).toContain('breakwater_worker_backend_errors_total{backend="postgres"} 0');
    lag = 12.5;
    text = await m.registry.metrics();
    expect(text).toContain("breakwater_usage_rollup_lag_seconds 12.5");
    lag = new Error("Connection terminated");
    text = await m.registry.metrics();
    expect(text).toMatch(/^breakwater_usage_rollup_lag_seconds nan$/im);
    expect(await counterValue(m.backendErrors, { backend: "postgres" })).toBe(1);
  });

  it("keeps separate registries per worker", async () => {
    const a = createWorkerMetrics();
    const b = createWorkerMetrics();
    a.jobs.inc({ queue: "q", result: "completed" });
    expect(await counterValue(a.jobs, { queue: "q" })).toBe(1);
    expect(await counterValue(b.jobs, { queue: "q" })).toBe(0);
  });
});
