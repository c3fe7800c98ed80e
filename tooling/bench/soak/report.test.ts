import { describe, expect, it } from "vitest";
import {
  comparisonMinutes,
  LogHistogram,
  type MemorySample,
  type MinuteReport,
  rssGrowth,
  summarize,
  verdict,
} from "./report";

const minute = (m: number, latencies: number[], statuses: Record<string, number> = {}): MinuteReport => {
  const h = new LogHistogram();
  for (const x of latencies) h.record(x);
  return {
    minute: m,
    endpoints: { check: { latency: h.toJSON(), statuses: { "2xx": latencies.length, ...statuses } } },
    sendLagP99: 0,
  };
};

describe("LogHistogram", () => {
  it("answers percentiles within 1 % of the exact ones and merges windows exactly", () => {
    const xs = Array.from({ length: 10_000 }, (_, i) => 0.2 + ((i * 7919) % 10_000) / 100);
    const a = new LogHistogram();
    const b = new LogHistogram();
    for (const [i, x] of xs.entries()) (i % 2 ? a : b).record(x);
    const all = LogHistogram.from(JSON.parse(JSON.stringify(a.toJSON()))).merge(b);
    const sorted = [...xs].sort((p, q) => p - q);
    for (const q of [0.5, 0.9, 0.99]) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1]!;
      expect(Math.abs(all.quantile(q) - exact) / exact).toBeLessThan(0.011);
    }
    expect(all.total).toBe(10_000);
    expect(all.quantile(1)).toBe(Math.max(...xs));
  });

  it("has no percentile while empty", () => {
    expect(new LogHistogram().quantile(0.99)).toBeNaN();
  });
});

describe("soak verdict", () => {
  const flat = (proc: number): MemorySample[] =>
    Array.from({ length: 61 }, (_, i) => ({ t: i * 10, rssBytes: proc * 2 ** 20, heapUsedBytes: null }));

  it("compares 5-minute windows of a long run and a fifth of a short one", () => {
    expect(comparisonMinutes(30)).toBe(5);
    expect(comparisonMinutes(10)).toBe(2);
    expect(comparisonMinutes(3)).toBe(1);
  });

  it("passes a flat run and fails on RSS growth, a slower tail, a 5xx or a dropped request", () => {
    const steady = Array.from({ length: 10 }, (_, m) => minute(m, Array(200).fill(2)));
    const ok = verdict({
      minutes: steady,
      totalMinutes: 10,
      endpoints: ["check"],
      memory: { sdk: flat(100) },
    });
    expect(ok.pass).toBe(true);

    const growing = flat(100).map((s) => ({ ...s, rssBytes: s.rssBytes * (1 + s.t / 3000) }));
    const leak = verdict({
      minutes: steady,
      totalMinutes: 10,
      endpoints: ["check"],
      memory: { sdk: growing },
    });
    expect(leak.criteria.find((c) => c.name === "RSS sdk")?.pass).toBe(false);

    const slower = steady.map((m, i) => (i >= 8 ? minute(i, Array(200).fill(2.6)) : m));
    const tail = verdict({
      minutes: slower,
      totalMinutes: 10,
      endpoints: ["check"],
      memory: { sdk: flat(100) },
    });
    expect(tail.criteria.find((c) => c.name === "p99 check")?.pass).toBe(false);

    for (const cls of ["5xx", "net"]) {
      const failing = steady.map((m, i) => (i === 4 ? minute(i, Array(200).fill(2), { [cls]: 1 }) : m));
      const r = verdict({
        minutes: failing,
        totalMinutes: 10,
        endpoints: ["check"],
        memory: { sdk: flat(100) },
      });
      expect(r.pass).toBe(false);
    }
  });

  it("measures RSS growth from a span after the warm-up window to the run's last span", () => {
    const samples: MemorySample[] = [
      { t: 0, rssBytes: 50, heapUsedBytes: null },
      { t: 60, rssBytes: 100, heapUsedBytes: null },
      { t: 70, rssBytes: 100, heapUsedBytes: null },
      { t: 590, rssBytes: 105, heapUsedBytes: null },
      { t: 600, rssBytes: 107, heapUsedBytes: null },
    ];
    expect(rssGrowth(samples, 60, 600)?.growth).toBeCloseTo(0.06, 5);
    expect(rssGrowth(samples, 300, 600)).toBeNull();
    // Over longer spans: [60, 360) against (300, 600].
    expect(rssGrowth(samples, 60, 600, 300)?.growth).toBeCloseTo(0.06, 5);
  });

  it("judges RSS over the p99's windows: a GC sawtooth is flat, a step up is growth", () => {
    // 30 minutes sampled every 10 s; a process whose RSS climbs 86 → 114 MB and drops back every 90 s.
    const saw: MemorySample[] = Array.from({ length: 181 }, (_, i) => ({
      t: i * 10,
      rssBytes: (86 + 28 * ((i % 9) / 8)) * 2 ** 20,
      heapUsedBytes: null,
    }));
    const minutes = Array.from({ length: 30 }, (_, m) => minute(m, Array(200).fill(2)));
    const flatSaw = verdict({ minutes, totalMinutes: 30, endpoints: ["check"], memory: { supervisor: saw } });
    expect(flatSaw.criteria.find((c) => c.name === "RSS supervisor")?.pass).toBe(true);
    // The same process, 25 MB higher from minute 14 on (what a young generation growing looks like).
    const stepped = saw.map((s) => (s.t >= 840 ? { ...s, rssBytes: s.rssBytes + 25 * 2 ** 20 } : s));
    const step = verdict({
      minutes,
      totalMinutes: 30,
      endpoints: ["check"],
      memory: { supervisor: stepped },
    });
    expect(step.criteria.find((c) => c.name === "RSS supervisor")?.pass).toBe(false);
    expect(summarize([minute(0, [1, 2, 3])], "check").requests).toBe(3);
  });
});
