import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK_LATENCY_BUCKETS } from "./metrics";
import { createMetricsServer, PROMETHEUS_TEXT } from "./metrics-server";
import {
  breakerPath,
  breakerReport,
  CHECK,
  checkBody,
  createTenant,
  type Harness,
  post,
  startHarness,
} from "./testing/harness";

let h: Harness;
let metricsUrl: string;
let close: () => Promise<void>;
beforeAll(async () => {
  h = await startHarness();
  const server = createMetricsServer(() => [h.runtime.metrics.registry]);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  metricsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  close = () => new Promise<void>((r) => server.close(() => r()));
});
afterAll(async () => {
  await close?.();
  await h?.close();
});

/** The value of one sample line (`name{labels} value`), 0 when the series is absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function scrape(): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(metricsUrl);
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

describe("SDK API metrics through the lean server", () => {
  it("a check increments the request counter and the latency histogram, scraped in Prometheus text format", async () => {
    const t = await createTenant(h);
    const before = (await scrape()).text;
    const allowed = await post(h, CHECK, checkBody(), t.key);
    expect(allowed.status).toBe(200);
    const refused = await post(h, CHECK, checkBody(), "sk_live_not_a_key");
    expect(refused.status).toBe(401);

    const after = await scrape();
    expect(after.status).toBe(200);
    expect(after.type).toBe(PROMETHEUS_TEXT);
    expect(after.text).toContain("# TYPE breakwater_sdk_requests_total counter");
    expect(after.text).toContain("# TYPE breakwater_sdk_request_duration_seconds histogram");
    const ok = 'breakwater_sdk_requests_total{endpoint="check",status="200"}';
    const denied = 'breakwater_sdk_requests_total{endpoint="check",status="401"}';
    expect(sample(after.text, ok) - sample(before, ok)).toBe(1);
    expect(sample(after.text, denied) - sample(before, denied)).toBe(1);
    const count = 'breakwater_sdk_request_duration_seconds_count{endpoint="check"}';
    expect(sample(after.text, count) - sample(before, count)).toBe(2);
    const inf = 'breakwater_sdk_request_duration_seconds_bucket{le="+Inf",endpoint="check"}';
    expect(sample(after.text, inf)).toBe(sample(after.text, count));
    const sum = 'breakwater_sdk_request_duration_seconds_sum{endpoint="check"}';
    expect(sample(after.text, sum)).toBeGreaterThan(sample(before, sum));
    // Buckets are cumulative: each holds at least the one below it.
    const bucketValues = SDK_LATENCY_BUCKETS.map((le) =>
      sample(after.text, `breakwater_sdk_request_duration_seconds_bucket{le="${le}",endpoint="check"}`),
    );
    for (let i = 1; i < bucketValues.length; i++)
      expect(bucketValues[i]).toBeGreaterThanOrEqual(bucketValues[i - 1]!);
    expect(sample(after.text, inf)).toBeGreaterThanOrEqual(bucketValues.at(-1)!);
    // Every sample line is `name{labels} number`.
    for (const line of after.text.split("\n")) {
      if (line === "" || line.startsWith("#")) continue;
      expect(line).toMatch(
        /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? -?[0-9.e+-]+$|^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (NaN|[+-]Inf)$/,
      );
    }
  });

  it("paths no route serves and wrong methods are counted, and the listener serves only /metrics", async () => {
    const before = (await scrape()).text;
    expect((await fetch(`${h.url}/api/v1/nope`)).status).toBe(404);
    expect((await fetch(`${h.url}${CHECK}`)).status).toBe(405);
    const after = (await scrape()).text;
    const nf = 'breakwater_sdk_requests_total{endpoint="unmatched",status="404"}';
    const na = 'breakwater_sdk_requests_total{endpoint="check",status="405"}';
    expect(sample(after, nf) - sample(before, nf)).toBe(1);
    expect(sample(after, na) - sample(before, na)).toBe(1);
    // The SDK port has no /metrics; the metrics port has nothing else.
    expect((await fetch(`${h.url}/metrics`)).status).toBe(404);
    expect((await fetch(metricsUrl.replace("/metrics", "/health"))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(405);
  });

  it("breaker reports are counted by path, and flushed heartbeats by result", async () => {
    const t = await createTenant(h);
    const before = (await scrape()).text;
    const t0 = Date.now() - 60_000;
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    expect((await post(h, breakerPath(t.projectId), breakerReport(at(0), "closed"), t.key)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 100));
    expect((await post(h, breakerPath(t.projectId), breakerReport(at(1), "closed"), t.key)).status).toBe(202);
    expect((await post(h, breakerPath(t.projectId), breakerReport(at(1), "closed"), t.key)).status).toBe(202);
    const path = (p: string) => `breakwater_breaker_reports_total{path="${p}"}`;
    const written = 'breakwater_breaker_heartbeat_rows_total{result="written"}';
    await expect
      .poll(async () => sample((await scrape()).text, written) - sample(before, written), { timeout: 5_000 })
      .toBe(1);
    const after = (await scrape()).text;
    expect(sample(after, path("transactional")) - sample(before, path("transactional"))).toBe(1);
    expect(sample(after, path("heartbeat")) - sample(before, path("heartbeat"))).toBe(1);
    expect(sample(after, path("late")) - sample(before, path("late"))).toBe(1);
    expect(after).toContain("# TYPE breakwater_breaker_heartbeats_buffered gauge");
    expect(sample(after, "breakwater_breaker_heartbeat_flush_failures_total")).toBe(0);
  });
});
