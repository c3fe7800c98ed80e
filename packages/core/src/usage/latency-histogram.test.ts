import { describe, expect, it } from "vitest";
import {
  LATENCY_BUCKET_BOUNDS,
  LATENCY_BUCKETS,
  latencyBucketOf,
  latencyBucketRange,
  latencyPercentile,
} from "./latency-histogram";

describe("latency histogram", () => {
  it("has strictly increasing integer bounds from 1 ms to beyond 15 minutes, each bucket under 30 % wide from 8 ms", () => {
    expect(LATENCY_BUCKET_BOUNDS[0]).toBe(1);
    expect(LATENCY_BUCKET_BOUNDS[LATENCY_BUCKET_BOUNDS.length - 1]).toBeGreaterThan(900_000);
    for (let i = 1; i < LATENCY_BUCKET_BOUNDS.length; i++) {
      const [a, b] = [LATENCY_BUCKET_BOUNDS[i - 1]!, LATENCY_BUCKET_BOUNDS[i]!];
      expect(b).toBeGreaterThan(a);
      if (a >= 8) expect(b / a).toBeLessThan(1.3);
    }
    expect(LATENCY_BUCKETS).toBe(LATENCY_BUCKET_BOUNDS.length + 1);
  });

  it("puts a latency in the bucket whose range holds it", () => {
    for (const ms of [0, 1, 2, 3, 7, 8, 99, 100, 101, 1234, 60_000, 5_000_000]) {
      const j = latencyBucketOf(ms);
      const [lo, hi] = latencyBucketRange(j);
      expect(ms).toBeGreaterThanOrEqual(lo);
      if (j < LATENCY_BUCKETS - 1) expect(ms).toBeLessThan(hi);
    }
    expect(latencyBucketOf(0)).toBe(0);
  });

  it("answers percentiles inside the bucket of the exact nearest-rank value", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values = Array.from({ length: 5000 }, () => Math.floor(20 + 3000 * rand() ** 3));
    const counts = new Array(LATENCY_BUCKETS).fill(0);
    for (const v of values) counts[latencyBucketOf(v)]++;
    const sorted = [...values].sort((a, b) => a - b);
    for (const p of [0.5, 0.95, 0.99]) {
      const exact = sorted[Math.ceil(p * sorted.length) - 1]!;
      const est = latencyPercentile(counts, p)!;
      const [lo, hi] = latencyBucketRange(latencyBucketOf(exact));
      expect(est).toBeGreaterThanOrEqual(lo);
      expect(est).toBeLessThanOrEqual(hi);
    }
    expect(latencyPercentile(new Array(LATENCY_BUCKETS).fill(0), 0.5)).toBeNull();
  });
});
