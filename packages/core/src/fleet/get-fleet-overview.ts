import { z } from "zod";
import { sharedBudgetRedis } from "../budgets/budget-redis";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { type LiveCounts, liveCounts, liveCountsKey } from "./fleet-counts";
import {
  DEFAULT_RECOVERY_WINDOW_SECONDS,
  FALLBACK_SERVING_WINDOW_SECONDS,
  type InstanceCounts,
  type ProviderStatus,
  providerStatus,
  STATUS_RANK,
  statusSummary,
  unprobedNote,
} from "./fleet-status";

export const getFleetOverviewInput = z.object({
  organizationId: z.string().min(1),
  /** Only these projects (the filter); all when absent or empty. */
  projectIds: z.array(z.string().min(1)).max(500).optional(),
  /** Only these providers; all when absent or empty. */
  providers: z.array(z.string().min(1).max(64)).max(100).optional(),
  now: z.date().optional(),
});

export interface FleetCell extends InstanceCounts {
  status: ProviderStatus;
  /** e.g. "2 of 7 instances Down". */
  summary: string;
  /** False when no instance of the project ever reported this provider. */
  reported: boolean;
  openEpisodes: number;
  /** Since when the worst live instance is in its state (Down/Recovering), for "Down for 12 min". */
  since: string | null;
  lastReportAt: string | null;
  /** Live instances Down past their recovery window while their fallback serves. */
  unprobed: number;
  /** "Down 2 h, fallback serving — breaker not re-probed" when `unprobed` > 0. */
  unprobedNote: string | null;
}

export interface FleetOverviewDto {
  generatedAt: string;
  staleAfterSeconds: number;
  /** When the next live instance turns stale if nothing reports: the page refetches then. */
  nextStaleAt: string | null;
  /** Every provider reported in the organization (the filter's options). */
  allProviders: string[];
  /** Every project of the organization (the filter's options). */
  allProjects: { id: string; name: string }[];
  /** The grid's columns after the provider filter. */
  providers: string[];
  /** The grid's rows after the project filter, worst first. */
  projects: { id: string; name: string; status: ProviderStatus; cells: Record<string, FleetCell> }[];
  /** Cells per status over the filtered grid (cells nobody reported are not counted). */
  totals: Record<ProviderStatus, number>;
}

export interface Row {
  project_id: string;
  provider: string;
  healthy: number;
  down: number;
  recovering: number;
  stale: number;
  open_episodes: number;
  down_since: Date | null;
  recovering_since: Date | null;
  last_report: Date;
  oldest_live: Date | null;
  unprobed: number;
  unprobed_since: Date | null;
}

const EMPTY: InstanceCounts = { healthy: 0, down: 0, recovering: 0, stale: 0 };

/**
 * The fleet grid: every project × provider of the organization with its status (stale instances
 * excluded and counted apart), counts and unprobed-Down notes, from one aggregate over the latest
 * snapshots joined to the recent fallback-served calls. Viewer role.
 */
export async function getFleetOverview(
  ctx: Ctx,
  raw: z.input<typeof getFleetOverviewInput>,
): Promise<FleetOverviewDto> {
  const input = getFleetOverviewInput.parse(raw);
  if (ctx.organizationId && ctx.organizationId !== input.organizationId) throw notFound("Organization");
  const now = input.now ?? new Date();
  const staleMs = ctx.config.BREAKER_STALE_SECONDS * 1000;
  const allProjects = await ctx.db.project.findMany({
    where: { organizationId: input.organizationId, archivedAt: null },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const ids = allProjects.map((p) => p.id);
  const rows = ids.length === 0 ? [] : await fleetRows(ctx, ids, now);
  const allProviders = [...new Set(rows.map((r) => r.provider))].sort();
  const wantProviders = input.providers?.length ? new Set(input.providers) : null;
  const wantProjects = input.projectIds?.length ? new Set(input.projectIds) : null;
  const providers = wantProviders ? allProviders.filter((p) => wantProviders.has(p)) : allProviders;

  const byKey = new Map<string, Row>();
  let nextStale: number | null = null;
  for (const r of rows) {
    byKey.set(`${r.project_id}\u0000${r.provider}`, r);
    if (r.oldest_live) {
      const t = r.oldest_live.getTime() + staleMs;
      if (nextStale === null || t < nextStale) nextStale = t;
    }
  }

  const totals: Record<ProviderStatus, number> = { Healthy: 0, Down: 0, Recovering: 0, Unknown: 0 };
  const projects = allProjects
    .filter((p) => !wantProjects || wantProjects.has(p.id))
    .map((p) => {
      const cells: Record<string, FleetCell> = {};
      let worst: ProviderStatus = "Healthy";
      let anyReported = false;
      let downInstances = 0;
      for (const provider of providers) {
        const r = byKey.get(`${p.id}\u0000${provider}`);
        const counts = r
          ? { healthy: r.healthy, down: r.down, recovering: r.recovering, stale: r.stale }
          : EMPTY;
        const status = providerStatus(counts);
        const since = r
          ? status === "Down"
            ? r.down_since
            : status === "Recovering"
              ? r.recovering_since
              : null
          : null;
        cells[provider] = {
          ...counts,
          status,
          summary: statusSummary(counts),
          reported: r !== undefined,
          openEpisodes: r?.open_episodes ?? 0,
          since: since?.toISOString() ?? null,
          lastReportAt: r?.last_report.toISOString() ?? null,
          unprobed: r?.unprobed ?? 0,
          unprobedNote:
            r?.unprobed && r.unprobed_since
              ? unprobedNote((now.getTime() - r.unprobed_since.getTime()) / 1000)
              : null,
        };
        if (r) {
          totals[status]++;
          anyReported = true;
          downInstances += counts.down;
          if (STATUS_RANK[status] < STATUS_RANK[worst]) worst = status;
        }
      }
      return {
        id: p.id,
        name: p.name,
        status: anyReported ? worst : ("Unknown" as const),
        cells,
        downInstances,
        anyReported,
      };
    })
    .sort(
      (a, b) =>
        Number(b.anyReported) - Number(a.anyReported) ||
        STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
        b.downInstances - a.downInstances ||
        a.name.localeCompare(b.name),
    )
    .map(({ downInstances: _d, anyReported: _a, ...p }) => p);

  return {
    generatedAt: now.toISOString(),
    staleAfterSeconds: ctx.config.BREAKER_STALE_SECONDS,
    nextStaleAt: nextStale === null ? null : new Date(nextStale).toISOString(),
    allProviders,
    allProjects,
    providers,
    projects,
    totals,
  };
}

/**
 * One row per (project, provider) that has snapshots: live counts from Redis (fleet-counts.ts),
 * the stale count from the database's per (project, provider) totals, and the figures of instances
 * that are not closed (since when Down or Recovering, open episodes, unprobed) from the rows a
 * partial index holds. Projects Redis cannot count are aggregated from their snapshots instead.
 */
export async function fleetRows(ctx: Ctx, ids: string[], now: Date): Promise<Row[]> {
  const staleMs = ctx.config.BREAKER_STALE_SECONDS * 1000;
  const totals = await ctx.db.$queryRaw<{ project_id: string; provider: string; total: number }[]>`
    SELECT project_id, provider, total FROM breaker_snapshot_totals
    WHERE project_id = ANY(${ids}::text[]) AND total > 0`;
  const providersByProject = new Map<string, string[]>();
  for (const t of totals) {
    const list = providersByProject.get(t.project_id);
    if (list) list.push(t.provider);
    else providersByProject.set(t.project_id, [t.provider]);
  }
  // The dashboard's deps carry no Redis client: it reads with the process's shared one.
  const redis = ctx.redis ?? (await sharedBudgetRedis(ctx.config));
  const live =
    providersByProject.size === 0
      ? new Map<string, LiveCounts>()
      : await liveCounts({ ...ctx, redis }, providersByProject, now);
  const counted = new Set<string>();
  const uncounted: string[] = [];
  for (const [projectId, providers] of providersByProject) {
    if (providers.every((p) => live.has(liveCountsKey(projectId, p)))) counted.add(projectId);
    else uncounted.push(projectId);
  }
  const [unhealthy, aggregated] = await Promise.all([
    counted.size === 0 ? [] : unhealthyRows(ctx, [...counted], now),
    uncounted.length === 0 ? [] : aggregateRows(ctx, uncounted, now),
  ]);
  const byKey = new Map(unhealthy.map((r) => [liveCountsKey(r.project_id, r.provider), r]));
  const rows: Row[] = aggregated;
  for (const t of totals) {
    if (!counted.has(t.project_id)) continue;
    const key = liveCountsKey(t.project_id, t.provider);
    const l = live.get(key)!;
    const u = byKey.get(key);
    const liveTotal = l.healthy + l.down + l.recovering;
    rows.push({
      project_id: t.project_id,
      provider: t.provider,
      healthy: l.healthy,
      down: l.down,
      recovering: l.recovering,
      stale: Math.max(0, t.total - liveTotal),
      open_episodes: u?.open_episodes ?? 0,
      down_since: l.down > 0 ? (u?.down_since ?? null) : null,
      recovering_since: l.recovering > 0 ? (u?.recovering_since ?? null) : null,
      last_report: new Date(l.lastSeenMs ?? now.getTime() - staleMs),
      oldest_live: l.oldestLiveMs === null ? null : new Date(l.oldestLiveMs),
      unprobed: u?.unprobed ?? 0,
      unprobed_since: u?.unprobed_since ?? null,
    });
  }
  return rows;
}

type UnhealthyRow = Pick<
  Row,
  | "project_id"
  | "provider"
  | "open_episodes"
  | "down_since"
  | "recovering_since"
  | "unprobed"
  | "unprobed_since"
>;

/** The figures of instances that are not closed, from the rows the partial index holds. */
function unhealthyRows(ctx: Ctx, ids: string[], now: Date): Promise<UnhealthyRow[]> {
  const cutoff = new Date(now.getTime() - ctx.config.BREAKER_STALE_SECONDS * 1000);
  const probeCutoff = new Date(now.getTime() - DEFAULT_RECOVERY_WINDOW_SECONDS * 1000);
  const servingSince = new Date(now.getTime() - FALLBACK_SERVING_WINDOW_SECONDS * 1000);
  return ctx.db.$queryRaw<UnhealthyRow[]>`
    WITH snap AS (
      SELECT project_id, provider, sdk_instance_id, state, state_since, open_episode_id,
        received_at >= ${cutoff} AS live
      FROM breaker_snapshots
      WHERE project_id = ANY(${ids}::text[]) AND state <> 'closed'
    ), fallback AS (
      SELECT project_id, sdk_instance_id, requested_provider AS provider, max("timestamp") AS last_served
      FROM metadata_events
      WHERE project_id = ANY(${ids}::text[]) AND "timestamp" >= ${servingSince}
        AND is_provider_fallback AND status = 'success'
        AND requested_provider IS NOT NULL AND requested_provider <> provider
      GROUP BY 1, 2, 3
    )
    SELECT s.project_id, s.provider,
      count(*) FILTER (WHERE open_episode_id IS NOT NULL)::int AS open_episodes,
      min(state_since) FILTER (WHERE live AND state = 'open') AS down_since,
      min(state_since) FILTER (WHERE live AND state = 'half_open') AS recovering_since,
      count(*) FILTER (WHERE live AND state = 'open' AND state_since < ${probeCutoff}
        AND last_served >= state_since)::int AS unprobed,
      min(state_since) FILTER (WHERE live AND state = 'open' AND state_since < ${probeCutoff}
        AND last_served >= state_since) AS unprobed_since
    FROM snap s
    LEFT JOIN fallback f
      ON f.project_id = s.project_id AND f.sdk_instance_id = s.sdk_instance_id AND f.provider = s.provider
    GROUP BY s.project_id, s.provider`;
}

/** Every figure aggregated from the projects' snapshots (when Redis cannot count them). */
export function aggregateRows(ctx: Ctx, ids: string[], now: Date): Promise<Row[]> {
  const cutoff = new Date(now.getTime() - ctx.config.BREAKER_STALE_SECONDS * 1000);
  const probeCutoff = new Date(now.getTime() - DEFAULT_RECOVERY_WINDOW_SECONDS * 1000);
  const servingSince = new Date(now.getTime() - FALLBACK_SERVING_WINDOW_SECONDS * 1000);
  return ctx.db.$queryRaw<Row[]>`
    WITH fallback AS (
      SELECT project_id, sdk_instance_id, requested_provider AS provider, max("timestamp") AS last_served
      FROM metadata_events
      WHERE project_id = ANY(${ids}::text[]) AND "timestamp" >= ${servingSince}
        AND is_provider_fallback AND status = 'success'
        AND requested_provider IS NOT NULL AND requested_provider <> provider
      GROUP BY 1, 2, 3
    ), snap AS (
      SELECT s.project_id, s.provider, s.state, s.received_at, s.state_since, s.open_episode_id,
        s.received_at >= ${cutoff} AS live, f.last_served
      FROM breaker_snapshots s
      LEFT JOIN fallback f
        ON f.project_id = s.project_id AND f.sdk_instance_id = s.sdk_instance_id AND f.provider = s.provider
      WHERE s.project_id = ANY(${ids}::text[])
    )
    SELECT project_id, provider,
      count(*) FILTER (WHERE live AND state = 'closed')::int AS healthy,
      count(*) FILTER (WHERE live AND state = 'open')::int AS down,
      count(*) FILTER (WHERE live AND state = 'half_open')::int AS recovering,
      count(*) FILTER (WHERE NOT live)::int AS stale,
      count(*) FILTER (WHERE open_episode_id IS NOT NULL)::int AS open_episodes,
      min(state_since) FILTER (WHERE live AND state = 'open') AS down_since,
      min(state_since) FILTER (WHERE live AND state = 'half_open') AS recovering_since,
      max(received_at) AS last_report,
      min(received_at) FILTER (WHERE live) AS oldest_live,
      count(*) FILTER (WHERE live AND state = 'open' AND state_since < ${probeCutoff}
        AND last_served >= state_since)::int AS unprobed,
      min(state_since) FILTER (WHERE live AND state = 'open' AND state_since < ${probeCutoff}
        AND last_served >= state_since) AS unprobed_since
    FROM snap
    GROUP BY project_id, provider`;
}
