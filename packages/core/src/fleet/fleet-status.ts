import type { CircuitState } from "./breaker-state";

/** The UI's plain names: closed = Healthy, open = Down, half_open = Recovering. */
export type HealthLabel = "Healthy" | "Down" | "Recovering";
/** A provider's status in a project; Unknown when no instance is live. */
export type ProviderStatus = HealthLabel | "Unknown";

export const HEALTH_LABEL: Record<CircuitState, HealthLabel> = {
  closed: "Healthy",
  open: "Down",
  half_open: "Recovering",
};

export interface InstanceCounts {
  healthy: number;
  down: number;
  recovering: number;
  /** Instances with no report for BREAKER_STALE_SECONDS: shown greyed, excluded from status. */
  stale: number;
}

/** Down if any live instance is Down, else Recovering if any is, else Healthy; Unknown with none live. */
export function providerStatus(c: InstanceCounts): ProviderStatus {
  if (c.down > 0) return "Down";
  if (c.recovering > 0) return "Recovering";
  if (c.healthy > 0) return "Healthy";
  return "Unknown";
}

/** "2 of 7 instances Down" — the count that goes with a status. */
export function statusSummary(c: InstanceCounts): string {
  const live = c.healthy + c.down + c.recovering;
  const status = providerStatus(c);
  if (status === "Unknown")
    return c.stale > 0 ? `No live instance (${c.stale} stale)` : "No instance reported";
  const n = status === "Down" ? c.down : status === "Recovering" ? c.recovering : c.healthy;
  return `${n} of ${live} instance${live === 1 ? "" : "s"} ${status}`;
}

/** A stretch of time an instance spent unhealthy. */
export interface UnhealthySegment {
  from: number;
  to: number;
  state: "open" | "half_open";
}

export interface TimelineBucket {
  /** Bucket start (ISO). */
  at: string;
  /** Transitions into each state in the bucket. */
  down: number;
  recovering: number;
  healthy: number;
}

export interface UptimeDay {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** 1 − (Down seconds × 1.0 + Recovering seconds × 0.3) / seconds observed that day. */
  uptime: number;
  downSeconds: number;
  recoveringSeconds: number;
}

const DAY_MS = 86_400_000;

/**
 * Daily uptime of a provider from its instances' unhealthy segments. At each moment the provider
 * is Down if any instance is Down, else Recovering if any is — so overlapping instances count once.
 */
export function uptimeBars(segments: UnhealthySegment[], endMs: number, days: number): UptimeDay[] {
  const firstDay = Math.floor(endMs / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  // Sweep line over segment edges: +1/−1 per state; the provider's state between edges follows.
  const edges: { t: number; open: number; half: number }[] = [];
  for (const s of segments) {
    const from = Math.max(s.from, firstDay);
    const to = Math.min(s.to, endMs);
    if (to <= from) continue;
    edges.push({ t: from, open: s.state === "open" ? 1 : 0, half: s.state === "half_open" ? 1 : 0 });
    edges.push({ t: to, open: s.state === "open" ? -1 : 0, half: s.state === "half_open" ? -1 : 0 });
  }
  edges.sort((a, b) => a.t - b.t);
  const down = new Array<number>(days).fill(0);
  const rec = new Array<number>(days).fill(0);
  const credit = (from: number, to: number, bucket: number[]) => {
    for (let t = from; t < to; ) {
      const d = Math.floor((t - firstDay) / DAY_MS);
      const dayEnd = firstDay + (d + 1) * DAY_MS;
      const until = Math.min(to, dayEnd);
      if (d >= 0 && d < days) bucket[d] = (bucket[d] ?? 0) + (until - t) / 1000;
      t = until;
    }
  };
  let open = 0;
  let half = 0;
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i]!;
    open += e.open;
    half += e.half;
    const next = edges[i + 1]?.t ?? e.t;
    if (next > e.t) {
      if (open > 0) credit(e.t, next, down);
      else if (half > 0) credit(e.t, next, rec);
    }
  }
  return down.map((d, i) => {
    const start = firstDay + i * DAY_MS;
    const observed = Math.max(1, (Math.min(start + DAY_MS, endMs) - start) / 1000);
    const r = rec[i] ?? 0;
    return {
      day: new Date(start).toISOString().slice(0, 10),
      uptime: Math.max(0, Math.min(1, 1 - (d + 0.3 * r) / observed)),
      downSeconds: Math.round(d),
      recoveringSeconds: Math.round(r),
    };
  });
}

/** The SDK's default `circuit_breaker_recovery_timeout`: an open breaker probes again after it. */
export const DEFAULT_RECOVERY_WINDOW_SECONDS = 60;
/** How recent a fallback-served call must be to say "fallback serving". */
export const FALLBACK_SERVING_WINDOW_SECONDS = 15 * 60;

/** Severity for "worst first": Down, Recovering, Unknown, Healthy. */
export const STATUS_RANK: Record<ProviderStatus, number> = { Down: 0, Recovering: 1, Unknown: 2, Healthy: 3 };

/** A short human duration: "45 s", "12 min", "2 h", "2 h 30 min", "3 d". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) {
    const rest = m % 60;
    return rest >= 5 && h < 10 ? `${h} h ${rest} min` : `${h} h`;
  }
  return `${Math.floor(h / 24)} d`;
}

/** The note for a breaker that stays open while its fallback serves (the SDK does not re-probe it). */
export function unprobedNote(downSeconds: number): string {
  return `Down ${formatDuration(downSeconds)}, fallback serving — breaker not re-probed`;
}

/** The bucket an instance is counted in: its state while live, `stale` once silent. */
export type InstanceBucket = keyof InstanceCounts;
const BUCKET: Record<CircuitState, InstanceBucket> = {
  closed: "healthy",
  open: "down",
  half_open: "recovering",
};

/** A pushed change of one instance, as far as the overview's counts are concerned. */
export interface CountedChange {
  projectId: string;
  provider: string;
  /** Where the instance was counted before: a live state, "stale", or null for a first report. */
  from: CircuitState | "stale" | null;
  /** Where it is counted now. */
  to: CircuitState | "stale";
}

/** The parts of the fleet overview a pushed change moves (its cells' counts, statuses and totals). */
interface CountedOverview {
  projects: {
    id: string;
    status: ProviderStatus;
    cells: Record<string, InstanceCounts & { status: ProviderStatus; summary: string; reported: boolean }>;
  }[];
  totals: Record<ProviderStatus, number>;
}

/**
 * The overview with one pushed change applied to its counts, so an open page shows it at once;
 * the refetch the same push starts then replaces it with the server's answer. Null when the change
 * cannot be placed (a project or provider not on the grid yet, a count that does not add up): the
 * page waits for the refetch instead.
 */
export function applyCountedChange<T extends CountedOverview>(overview: T, change: CountedChange): T | null {
  const project = overview.projects.find((p) => p.id === change.projectId);
  const cell = project?.cells[change.provider];
  if (!project || !cell || (change.from !== null && !cell.reported)) return null;
  const counts: InstanceCounts = {
    healthy: cell.healthy,
    down: cell.down,
    recovering: cell.recovering,
    stale: cell.stale,
  };
  if (change.from !== null) {
    const from = change.from === "stale" ? "stale" : BUCKET[change.from];
    if (counts[from] === 0) return null;
    counts[from]--;
  }
  counts[change.to === "stale" ? "stale" : BUCKET[change.to]]++;
  const status = providerStatus(counts);
  const cells = {
    ...project.cells,
    [change.provider]: { ...cell, ...counts, status, summary: statusSummary(counts), reported: true },
  };
  let worst: ProviderStatus = "Healthy";
  let any = false;
  for (const c of Object.values(cells)) {
    if (!c.reported) continue;
    any = true;
    if (STATUS_RANK[c.status] < STATUS_RANK[worst]) worst = c.status;
  }
  const totals = { ...overview.totals };
  if (cell.reported) totals[cell.status]--;
  totals[status]++;
  return {
    ...overview,
    projects: overview.projects.map((p) =>
      p === project ? { ...p, cells, status: any ? worst : "Unknown" } : p,
    ),
    totals,
  };
}
