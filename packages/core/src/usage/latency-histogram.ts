/**
 * The fixed log-scale latency histogram stored on every usage rollup row: four buckets per
 * doubling (each ≤ ~19 % wide) from 1 ms to ~17 min. Bucket 0 holds 0 ms; bucket j (1…n) holds
 * [BOUNDS[j-1], BOUNDS[j]), the last one everything from its lower bound up. Rollups of any hours
 * merge by adding counts, so percentiles over any range come from rollups alone.
 *
 * The bounds are part of the stored data: changing them needs a rebuild of every rollup.
 */
export const LATENCY_BUCKET_BOUNDS: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let k = 0; k <= 80; k++) {
    const b = Math.round(2 ** (k / 4));
    if (bounds[bounds.length - 1] !== b) bounds.push(b);
  }
  return Object.freeze(bounds);
})();

/** Length of every stored histogram array. */
export const LATENCY_BUCKETS = LATENCY_BUCKET_BOUNDS.length + 1;

/** The bucket of a latency: what Postgres's width_bucket(latency, BOUNDS) answers. */
export function latencyBucketOf(latencyMs: number): number {
  let lo = 0;
  let hi = LATENCY_BUCKET_BOUNDS.length;
  // Number of bounds ≤ latency (binary search).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((LATENCY_BUCKET_BOUNDS[mid] as number) <= latencyMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The [lower, upper) milliseconds of bucket j (the last bucket's upper equals its lower). */
export function latencyBucketRange(j: number): [number, number] {
  const lower = j === 0 ? 0 : (LATENCY_BUCKET_BOUNDS[j - 1] as number);
  const upper = j < LATENCY_BUCKET_BOUNDS.length ? (LATENCY_BUCKET_BOUNDS[j] as number) : lower;
  return [lower, upper];
}

/**
 * The p-quantile (0 < p ≤ 1, nearest rank) of a histogram, interpolated inside its bucket: always
 * inside the bucket that holds the exact value. Null for an empty histogram.
 */
export function latencyPercentile(counts: readonly number[], p: number): number | null {
  let total = 0;
  for (const c of counts) total += c;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let before = 0;
  for (let j = 0; j < counts.length; j++) {
    const c = counts[j] ?? 0;
    if (c > 0 && before + c >= rank) {
      const [lower, upper] = latencyBucketRange(j);
      const within = (rank - before - 0.5) / c;
      return Math.round(lower + (upper - lower) * within);
    }
    before += c;
  }
  return null;
}

/** Adds histogram b into a (arrays of any length; missing entries count 0). */
export function addHistogram(a: number[], b: readonly (number | null)[]): number[] {
  for (let j = 0; j < b.length; j++) a[j] = (a[j] ?? 0) + (b[j] ?? 0);
  return a;
}
