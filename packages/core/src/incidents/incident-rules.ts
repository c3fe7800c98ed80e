/** The incident rules that need no database: threshold, severity, milestones. */

/** Default minimum duration and quiet period of a project's incidents, in seconds. */
export const DEFAULT_INCIDENT_MIN_DURATION_SECS = 0;
export const DEFAULT_INCIDENT_QUIET_SECS = 60;

/**
 * Down instances needed to open an incident with `live` live instances: `thresholdPct` % of them
 * (at least 1), or by default 1 instance while the project has ≤ 2 live instances, else 25 %.
 */
export function thresholdInstances(live: number, thresholdPct: number | null): number {
  if (thresholdPct === null) return live <= 2 ? 1 : Math.max(1, Math.ceil(live * 0.25));
  return Math.max(1, Math.ceil((live * thresholdPct) / 100 - 1e-9));
}

/** Whether the affected count meets the threshold (never with no live instance). */
export function meetsThreshold(affected: number, live: number, thresholdPct: number | null): boolean {
  return live > 0 && affected > 0 && affected >= thresholdInstances(live, thresholdPct);
}

/** The share milestones announced by provider_incident_updated, in % of live instances. */
export const INCIDENT_MILESTONES = [50, 100] as const;

/** Milestones `share` (0–1) has reached that are not in `crossed` yet, in ascending order. */
export function newMilestones(share: number, crossed: number[]): (typeof INCIDENT_MILESTONES)[number][] {
  return INCIDENT_MILESTONES.filter((m) => share * 100 >= m - 1e-9 && !crossed.includes(m));
}

/** PagerDuty severity from the affected share: all instances critical, half or more error, else warning. */
export function incidentSeverity(share: number): "critical" | "error" | "warning" {
  if (share >= 1) return "critical";
  if (share >= 0.5) return "error";
  return "warning";
}

/** The sparkline keeps this many points per incident (older ones are thinned out). */
export const MAX_INCIDENT_SAMPLES = 240;

export interface IncidentSample {
  /** Epoch milliseconds. */
  t: number;
  affected: number;
  live: number;
}

/** Appends a point when the counts changed; past the cap every other old point is dropped. */
export function appendSample(samples: IncidentSample[], next: IncidentSample): IncidentSample[] {
  const last = samples[samples.length - 1];
  if (last && last.affected === next.affected && last.live === next.live) return samples;
  let out = [...samples, next];
  if (out.length > MAX_INCIDENT_SAMPLES) {
    const keepTail = Math.floor(MAX_INCIDENT_SAMPLES / 2);
    const head = out.slice(0, out.length - keepTail).filter((_, i) => i % 2 === 0);
    out = [...head, ...out.slice(out.length - keepTail)];
  }
  return out;
}

/** An episode as the provider page lists it. */
export interface EpisodeLike {
  id: string;
  openedAt: string;
  closedAt?: string | null;
}

/**
 * Groups a provider page's episodes under the incidents they overlap (an episode belongs to the
 * first incident whose [opened, resolved or now] it overlaps); the rest stay ungrouped.
 */
export function groupEpisodesByIncident<E extends EpisodeLike>(
  incidents: { id: string; openedAt: string; resolvedAt: string | null }[],
  episodes: E[],
  now: number,
): { byIncident: Record<string, E[]>; ungrouped: E[] } {
  const byIncident: Record<string, E[]> = {};
  const ungrouped: E[] = [];
  for (const e of episodes) {
    const from = Date.parse(e.openedAt);
    const to = e.closedAt ? Date.parse(e.closedAt) : now;
    const inc = incidents.find((i) => {
      const iFrom = Date.parse(i.openedAt);
      const iTo = i.resolvedAt ? Date.parse(i.resolvedAt) : now;
      return from <= iTo && to >= iFrom;
    });
    if (!inc) {
      ungrouped.push(e);
      continue;
    }
    const list = byIncident[inc.id] ?? [];
    list.push(e);
    byIncident[inc.id] = list;
  }
  return { byIncident, ungrouped };
}
