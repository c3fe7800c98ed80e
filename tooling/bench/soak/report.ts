/**
 * The soak's figures and verdict, apart from the processes and sockets that produce them: latency
 * histograms that merge across minutes, per-window summaries, RSS growth, and the three criteria.
 */

/** What the soak drives, as it reports it. */
export const ENDPOINTS = [
  "check",
  "confirm",
  "ingest",
  "heartbeat",
  "lease grant",
  "lease renew",
  "lease surrender",
  "dashboard page",
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/**
 * A latency histogram with logarithmic buckets (each ~1 % wide), so percentiles carry ≤ 1 %
 * relative error, memory stays constant however long the soak runs, and minute windows merge into
 * longer ones exactly.
 */
export class LogHistogram {
  /** Bucket index → count. Index i holds values in [BASE^i, BASE^(i+1)) µs; index -1 holds < 1 µs. */
  counts = new Map<number, number>();
  total = 0;
  max = 0;

  static readonly BASE = 1.01;
  private static readonly LOG_BASE = Math.log(LogHistogram.BASE);

  record(ms: number): void {
    const us = ms * 1000;
    const i = us < 1 ? -1 : Math.floor(Math.log(us) / LogHistogram.LOG_BASE);
    this.counts.set(i, (this.counts.get(i) ?? 0) + 1);
    this.total++;
    if (ms > this.max) this.max = ms;
  }

  merge(other: LogHistogram | SerializedHistogram): this {
    const entries = other instanceof LogHistogram ? [...other.counts] : other.buckets;
    for (const [i, n] of entries) this.counts.set(i, (this.counts.get(i) ?? 0) + n);
    this.total += other.total;
    if (other.max > this.max) this.max = other.max;
    return this;
  }

  /** The value (ms) at quantile q (0..1): the upper edge of the bucket holding it, capped at max. */
  quantile(q: number): number {
    if (this.total === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(q * this.total));
    const sorted = [...this.counts.keys()].sort((a, b) => a - b);
    let seen = 0;
    for (const i of sorted) {
      seen += this.counts.get(i)!;
      if (seen >= rank) return Math.min(this.max, LogHistogram.BASE ** (i + 1) / 1000);
    }
    return this.max;
  }

  toJSON(): SerializedHistogram {
    return { buckets: [...this.counts], total: this.total, max: this.max };
  }

  static from(s: SerializedHistogram): LogHistogram {
    return new LogHistogram().merge(s);
  }
}

export interface SerializedHistogram {
  buckets: [number, number][];
  total: number;
  max: number;
}

/** What the driver counts per endpoint in one minute window. */
export interface EndpointMinute {
  latency: SerializedHistogram;
  /** Answers by status class: "2xx", "4xx", "5xx", and "net" for resets, refusals and timeouts. */
  statuses: Record<string, number>;
}

/** One minute window of the driver: per endpoint, and how late the driver itself sent (p99, ms). */
export interface MinuteReport {
  minute: number;
  endpoints: Record<string, EndpointMinute>;
  sendLagP99: number;
}

/** One memory sample of one process. */
export interface MemorySample {
  /** Seconds since the measured run started. */
  t: number;
  rssBytes: number;
  /** V8 heap in use (from the process's Prometheus metrics), when it exposes them. */
  heapUsedBytes: number | null;
}

export interface EndpointWindow {
  requests: number;
  p50: number;
  p99: number;
  /** Every answer that is not 2xx, and every request that got no answer. */
  errors: number;
  server5xx: number;
  /** Requests that got no HTTP answer: reset, refused, timed out. */
  dropped: number;
}

/** p50/p99/errors of one endpoint over the minutes [from, to). */
export function summarize(
  minutes: MinuteReport[],
  endpoint: string,
  from = 0,
  to = Infinity,
): EndpointWindow {
  const h = new LogHistogram();
  let errors = 0;
  let server5xx = 0;
  let dropped = 0;
  for (const m of minutes) {
    if (m.minute < from || m.minute >= to) continue;
    const e = m.endpoints[endpoint];
    if (!e) continue;
    h.merge(e.latency);
    for (const [cls, n] of Object.entries(e.statuses)) if (cls !== "2xx") errors += n;
    server5xx += e.statuses["5xx"] ?? 0;
    dropped += e.statuses.net ?? 0;
  }
  return { requests: h.total, p50: h.quantile(0.5), p99: h.quantile(0.99), errors, server5xx, dropped };
}

/**
 * RSS growth of one process after the warm-up: the mean of the samples in the `spanS` seconds from
 * `baselineAt` against the mean of the samples in the run's last `spanS` seconds. The spans are the
 * p99's windows (5 minutes in a 30-minute run), longer than a process's GC cycle: a process that
 * allocates slowly fills its young generation over a minute or two and its RSS saws up and down by
 * tens of MB, so two one-minute means compared a peak with a trough as often as not. A leak still
 * shows as a higher mean at the end. Null when either span has no sample.
 */
export function rssGrowth(
  samples: MemorySample[],
  baselineAt: number,
  endAt: number,
  spanS = 60,
): { baselineBytes: number; endBytes: number; growth: number } | null {
  const mean = (xs: MemorySample[]) => xs.reduce((a, s) => a + s.rssBytes, 0) / xs.length;
  const base = samples.filter((s) => s.t >= baselineAt && s.t < baselineAt + spanS);
  const end = samples.filter((s) => s.t > endAt - spanS && s.t <= endAt);
  if (base.length === 0 || end.length === 0) return null;
  const baselineBytes = mean(base);
  const endBytes = mean(end);
  return { baselineBytes, endBytes, growth: (endBytes - baselineBytes) / baselineBytes };
}

/** The length of the first and last windows compared: 5 minutes, or a fifth of a shorter run. */
export function comparisonMinutes(totalMinutes: number): number {
  return totalMinutes >= 25 ? 5 : Math.max(1, Math.round(totalMinutes / 5));
}

export interface Criterion {
  name: string;
  pass: boolean;
  detail: string;
}

export const LIMITS = { rssGrowth: 0.1, p99Ratio: 1.2 } as const;

/** The soak's three criteria: RSS growth per process, last ÷ first window p99 per endpoint, no 5xx. */
export function verdict(o: {
  minutes: MinuteReport[];
  totalMinutes: number;
  endpoints: string[];
  memory: Record<string, MemorySample[]>;
}): { window: number; criteria: Criterion[]; pass: boolean } {
  const w = comparisonMinutes(o.totalMinutes);
  const criteria: Criterion[] = [];
  const baselineAt = w * 60;
  const endAt = o.totalMinutes * 60;
  for (const [proc, samples] of Object.entries(o.memory)) {
    const g = rssGrowth(samples, baselineAt, endAt, w * 60);
    criteria.push(
      g === null
        ? { name: `RSS ${proc}`, pass: false, detail: "no samples to compare" }
        : {
            name: `RSS ${proc}`,
            pass: g.growth <= LIMITS.rssGrowth,
            detail: `${mb(g.baselineBytes)} MB in minutes ${w}–${2 * w} → ${mb(g.endBytes)} MB in the last ${w} (${pctText(g.growth)}, limit +${LIMITS.rssGrowth * 100} %)`,
          },
    );
  }
  for (const ep of o.endpoints) {
    const first = summarize(o.minutes, ep, 0, w);
    const last = summarize(o.minutes, ep, o.totalMinutes - w, o.totalMinutes);
    const ratio = last.p99 / first.p99;
    criteria.push({
      name: `p99 ${ep}`,
      pass: Number.isFinite(ratio) && ratio <= LIMITS.p99Ratio,
      detail: `first ${w} min ${fmtMs(first.p99)} ms (${first.requests}) → last ${w} min ${fmtMs(last.p99)} ms (${last.requests}): ×${Number.isFinite(ratio) ? ratio.toFixed(2) : "—"} (limit ×${LIMITS.p99Ratio})`,
    });
  }
  let fiveXx = 0;
  let dropped = 0;
  let fourXx = 0;
  for (const ep of o.endpoints) {
    const all = summarize(o.minutes, ep);
    fiveXx += all.server5xx;
    dropped += all.dropped;
    fourXx += all.errors - all.server5xx - all.dropped;
  }
  criteria.push({
    name: "no 5xx, nothing dropped",
    pass: fiveXx === 0 && dropped === 0,
    detail: `${fiveXx} answers 5xx, ${dropped} requests without an answer (reset, refused, timed out); ${fourXx} answers 4xx`,
  });
  return { window: w, criteria, pass: criteria.every((c) => c.pass) };
}

export const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
export const fmtMs = (ms: number) => (Number.isFinite(ms) ? (ms < 10 ? ms.toFixed(2) : ms.toFixed(1)) : "—");
const pctText = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;
