import { describe, expect, it } from "vitest";
import { faultBackend } from "./handlers/gate";
import { WIRE_ENDPOINTS } from "./handlers/router";
import { createWireMetrics, SDK_LATENCY_BUCKETS } from "./metrics";

/** The value of one sample line (`name{labels} value`), undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("SDK API metrics registry", () => {
  it("counts requests by endpoint and status, only for series that happened", async () => {
    const m = createWireMetrics(["check", "ingest"]);
    const t = performance.now();
    m.observe(0, 200, t);
    m.observe(0, 200, t);
    m.observe(0, 503, t);
    m.count(1, 405);
    m.count(1, 42); // not an HTTP status
    const text = await m.registry.metrics();
    expect(sample(text, 'breakwater_sdk_requests_total{endpoint="check",status="200"}')).toBe(2);
    expect(sample(text, 'breakwater_sdk_requests_total{endpoint="check",status="503"}')).toBe(1);
    expect(sample(text, 'breakwater_sdk_requests_total{endpoint="ingest",status="405"}')).toBe(1);
    expect(sample(text, 'breakwater_sdk_requests_total{endpoint="ingest",status="other"}')).toBe(1);
    expect(sample(text, 'breakwater_sdk_requests_total{endpoint="ingest",status="200"}')).toBeUndefined();
  });

  it("puts each latency in the first bucket that holds it, cumulatively, with sum and count", async () => {
    const m = createWireMetrics(["check"]);
    const now = performance.now();
    m.observe(0, 200, now); // ~0 s: the 0.5 ms bucket
    m.observe(0, 200, now - 3); // ~3 ms: the 5 ms bucket
    m.observe(0, 200, now - 2_000); // 2 s: +Inf only
    const text = await m.registry.metrics();
    const bucket = (le: string) =>
      sample(text, `breakwater_sdk_request_duration_seconds_bucket{le="${le}",endpoint="check"}`);
    expect(bucket("0.0005")).toBe(1);
    expect(bucket("0.0025")).toBe(1);
    expect(bucket("0.005")).toBe(2);
    expect(bucket("1")).toBe(2);
    expect(bucket("+Inf")).toBe(3);
    expect(sample(text, 'breakwater_sdk_request_duration_seconds_count{endpoint="check"}')).toBe(3);
    const sum = sample(text, 'breakwater_sdk_request_duration_seconds_sum{endpoint="check"}')!;
    expect(sum).toBeGreaterThan(2.003);
    expect(sum).toBeLessThan(2.1);
    expect(text).toContain("# TYPE breakwater_sdk_request_duration_seconds histogram");
    // Buckets suited to the check's 1 s budget: 0.5 ms up to 1 s.
    expect(SDK_LATENCY_BUCKETS[0]).toBe(0.0005);
    expect(SDK_LATENCY_BUCKETS.at(-1)).toBe(1);
  });

  it("counts backend faults by store, every store printed from zero", async () => {
    const m = createWireMetrics(WIRE_ENDPOINTS);
    let text = await m.registry.metrics();
    expect(sample(text, 'breakwater_sdk_backend_errors_total{backend="redis"}')).toBe(0);
    m.backendError("redis");
    m.backendError("postgres");
    m.backendError("postgres");
    text = await m.registry.metrics();
    expect(sample(text, 'breakwater_sdk_backend_errors_total{backend="redis"}')).toBe(1);
    expect(sample(text, 'breakwater_sdk_backend_errors_total{backend="postgres"}')).toBe(2);
    expect(sample(text, 'breakwater_sdk_backend_errors_total{backend="unknown"}')).toBe(0);
  });

  it("labels every router endpoint plus unmatched paths", () => {
    expect(WIRE_ENDPOINTS).toContain("check");
    expect(WIRE_ENDPOINTS).toContain("breakerReports");
    expect(WIRE_ENDPOINTS.at(-1)).toBe("unmatched");
    expect(new Set(WIRE_ENDPOINTS).size).toBe(WIRE_ENDPOINTS.length);
  });
});

describe("faultBackend", () => {
  it("tells Postgres faults from Redis faults, unknown when a bare socket error names neither", () => {
    expect(faultBackend({ code: "57P01" })).toBe("postgres");
    expect(faultBackend({ code: "08006" })).toBe("postgres");
    expect(faultBackend({ code: "P1001" })).toBe("postgres");
    expect(faultBackend({ name: "PrismaClientInitializationError" })).toBe("postgres");
    expect(faultBackend(new Error("Connection terminated unexpectedly"))).toBe("postgres");
    expect(faultBackend({ name: "MaxRetriesPerRequestError" })).toBe("redis");
    expect(faultBackend(new Error("Connection is closed."))).toBe("redis");
    expect(faultBackend(new Error("wrapped", { cause: new Error("Stream isn't writeable") }))).toBe("redis");
    expect(faultBackend({ code: "ECONNREFUSED" })).toBe("unknown");
    expect(faultBackend(null)).toBe("unknown");
  });
});
