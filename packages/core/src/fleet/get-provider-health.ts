import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { CircuitState } from "./breaker-state";
import {
  HEALTH_LABEL,
  type HealthLabel,
  type InstanceCounts,
  type ProviderStatus,
  providerStatus,
  statusSummary,
  type TimelineBucket,
  type UnhealthySegment,
  type UptimeDay,
  unprobedNote,
  uptimeBars,
} from "./fleet-status";
import { fleetRows } from "./get-fleet-overview";

export const getProviderHealthInput = z.object({
  projectId: z.string().min(1),
  provider: z.string().min(1).max(64),
  /** Days of uptime bars (90 on the provider page). */
  days: z.number().int().min(1).max(365).default(90),
  transitionsLimit: z.number().int().min(1).max(1000).default(100),
  /** The transition timeline's span. */
  range: z.enum(["24h", "7d", "30d"]).default("24h"),
  now: z.date().optional(),
});

/** Timeline span and bucket per range: 48 × 30 min, 42 × 4 h, 30 × 1 day. */
const RANGES = {
  "24h": { spanMs: 86_400_000, bucketMs: 1_800_000 },
  "7d": { spanMs: 7 * 86_400_000, bucketMs: 4 * 3_600_000 },
  "30d": { spanMs: 30 * 86_400_000, bucketMs: 86_400_000 },
} as const;

export interface ProviderHealthDto {
  projectId: string;
  projectName: string;
  provider: string;
  generatedAt: string;
  staleAfterSeconds: number;
  status: ProviderStatus;
  summary: string;
  counts: InstanceCounts;
  /**
   * When the live instance seen longest ago turns stale if it stays silent (null when none is
   * live): the page refetches then, so an instance greys out on time with no report to push it.
   */
  nextStaleAt: string | null;
  /** "Down 2 h, fallback serving — breaker not re-probed" for the longest unprobed instance. */
  unprobedNote: string | null;
  range: "24h" | "7d" | "30d";
  timeline: TimelineBucket[];
  /** Calls requested of this provider that a fallback served successfully, last 24 h. */
  savedCalls24h: number;
  openEpisodes: {
    id: string;
    sdkInstanceId: string;
    openedAt: string;
    state: HealthLabel;
    durationSeconds: number;
  }[];
  recentEpisodes: {
    id: string;
    sdkInstanceId: string;
    openedAt: string;
    closedAt: string;
    resolution: string | null;
    durationSeconds: number;
    recoveringSeconds: number;
  }[];
  transitions: {
    id: string;
    sdkInstanceId: string;
    from: CircuitState | null;
    to: CircuitState;
    failureCount: number;
    successCount: number;
    reportedAt: string;
    episodeId: string | null;
  }[];
  uptime: UptimeDay[];
}

/**
 * The provider page's summary for one project: status and counts of live and stale instances, the
 * transition timeline, open and recent episodes, and daily uptime bars (Down 1.0, Recovering 0.3).
 * The instance table and the failover feed are read a page at a time (listProviderInstances,
 * listFailoverFeed). Viewer role; another tenant's project is NOT_FOUND.
 */
export async function getProviderHealth(
  ctx: Ctx,
  raw: z.input<typeof getProviderHealthInput>,
): Promise<ProviderHealthDto> {
  const input = getProviderHealthInput.parse(raw);
  const project = await ctx.db.project.findUnique({
    where: { id: input.projectId },
    select: { id: true, name: true, organizationId: true, archivedAt: true },
  });
  if (
    !project ||
    project.archivedAt ||
    (ctx.organizationId && project.organizationId !== ctx.organizationId)
  ) {
    throw notFound("Project");
  }
  const now = input.now ?? new Date();
  const windowStart = new Date(now.getTime() - input.days * 86_400_000);
  const where = { projectId: project.id, provider: input.provider };

  const range = RANGES[input.range];
  const rangeStart = new Date(now.getTime() - range.spanMs);
  // Buckets end with the one holding `now`, aligned to UTC multiples of the bucket size.
  const firstBucket = Math.ceil((now.getTime() + 1) / range.bucketMs) * range.bucketMs - range.spanMs;
  const dayAgo = new Date(now.getTime() - 86_400_000);

  const [transitions, openEpisodes, recent, windowEpisodes, buckets, saved] = await Promise.all([
    ctx.db.breakerTransition.findMany({
      where: { ...where, reportedAt: { gte: rangeStart } },
      orderBy: [{ reportedAt: "desc" }, { id: "desc" }],
      take: input.transitionsLimit,
    }),
    ctx.db.breakerEpisode.findMany({ where: { ...where, closedAt: null }, orderBy: { openedAt: "asc" } }),
    ctx.db.breakerEpisode.findMany({
      where: { ...where, closedAt: { not: null } },
      orderBy: { closedAt: "desc" },
      take: 20,
    }),
    ctx.db.breakerEpisode.findMany({
      where: { ...where, OR: [{ closedAt: null }, { closedAt: { gte: windowStart } }] },
      select: { id: true, openedAt: true, closedAt: true },
      take: 10_000,
    }),
    ctx.db.$queryRaw<{ bucket: number; to_state: CircuitState; n: number }[]>`
      SELECT floor((extract(epoch FROM reported_at) * 1000 - ${firstBucket}) / ${range.bucketMs})::int AS bucket,
        to_state::text AS to_state, count(*)::int AS n
      FROM breaker_transitions
      WHERE project_id = ${project.id} AND provider = ${input.provider} AND reported_at >= ${new Date(firstBucket)}
      GROUP BY 1, 2`,
    ctx.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM metadata_events
      WHERE project_id = ${project.id} AND "timestamp" >= ${dayAgo} AND is_provider_fallback
        AND status = 'success' AND requested_provider = ${input.provider} AND provider <> ${input.provider}`,
  ]);
  const bucketCount = range.spanMs / range.bucketMs;
  const timeline: TimelineBucket[] = Array.from({ length: bucketCount }, (_, k) => ({
    at: new Date(firstBucket + k * range.bucketMs).toISOString(),
    down: 0,
    recovering: 0,
    healthy: 0,
  }));
  for (const b of buckets) {
    const slot = timeline[b.bucket];
    if (!slot) continue;
    if (b.to_state === "open") slot.down += b.n;
    else if (b.to_state === "half_open") slot.recovering += b.n;
    else slot.healthy += b.n;
  }

  // Unhealthy segments per episode from its own transitions (open ↔ half_open inside it).
  const episodeTransitions =
    windowEpisodes.length === 0
      ? []
      : await ctx.db.breakerTransition.findMany({
          where: { episodeId: { in: windowEpisodes.map((e) => e.id) } },
          select: { episodeId: true, toState: true, reportedAt: true },
          orderBy: { reportedAt: "asc" },
        });
  const byEpisode = new Map<string, { toState: CircuitState; reportedAt: Date }[]>();
  for (const t of episodeTransitions) {
    if (!t.episodeId) continue;
    byEpisode.set(t.episodeId, [...(byEpisode.get(t.episodeId) ?? []), t]);
  }
  const segments: UnhealthySegment[] = [];
  for (const e of windowEpisodes) {
    const end = (e.closedAt ?? now).getTime();
    const ts = byEpisode.get(e.id) ?? [];
    let state: "open" | "half_open" = "open";
    let from = e.openedAt.getTime();
    for (const t of ts) {
      const at = Math.min(Math.max(t.reportedAt.getTime(), e.openedAt.getTime()), end);
      if (at > from) segments.push({ from, to: at, state });
      from = Math.max(from, at);
      if (t.toState === "closed") break;
      state = t.toState;
    }
    if (end > from) segments.push({ from, to: end, state });
  }

  // The headline figures come from the per (project, provider) counts (fleet-counts.ts), like the
  // overview's cell, so they never scan the fleet and always agree with the grid.
  const row = (await fleetRows(ctx, [project.id], now)).find((r) => r.provider === input.provider);
  const counts: InstanceCounts = row
    ? { healthy: row.healthy, down: row.down, recovering: row.recovering, stale: row.stale }
    : { healthy: 0, down: 0, recovering: 0, stale: 0 };
  const seconds = (a: Date, b: Date) => Math.max(0, Math.round((b.getTime() - a.getTime()) / 1000));

  return {
    projectId: project.id,
    projectName: project.name,
    provider: input.provider,
    generatedAt: now.toISOString(),
    staleAfterSeconds: ctx.config.BREAKER_STALE_SECONDS,
    status: providerStatus(counts),
    summary: statusSummary(counts),
    counts,
    // From the same counts: the least recently seen live instance, as the overview's nextStaleAt.
    nextStaleAt: row?.oldest_live
      ? new Date(row.oldest_live.getTime() + ctx.config.BREAKER_STALE_SECONDS * 1000).toISOString()
      : null,
    openEpisodes: openEpisodes.map((e) => ({
      id: e.id,
      sdkInstanceId: e.sdkInstanceId,
      openedAt: e.openedAt.toISOString(),
      state: HEALTH_LABEL[e.lastState],
      durationSeconds: seconds(e.openedAt, now),
    })),
    recentEpisodes: recent.map((e) => ({
      id: e.id,
      sdkInstanceId: e.sdkInstanceId,
      openedAt: e.openedAt.toISOString(),
      closedAt: (e.closedAt as Date).toISOString(),
      resolution: e.resolution,
      durationSeconds: seconds(e.openedAt, e.closedAt as Date),
      recoveringSeconds: Math.round(e.recoveringSecs),
    })),
    transitions: transitions.map((t) => ({
      id: t.id,
      sdkInstanceId: t.sdkInstanceId,
      from: t.fromState,
      to: t.toState,
      failureCount: t.failureCount,
      successCount: t.successCount,
      reportedAt: t.reportedAt.toISOString(),
      episodeId: t.episodeId,
    })),
    uptime: uptimeBars(segments, now.getTime(), input.days),
    unprobedNote: row?.unprobed_since
      ? unprobedNote((now.getTime() - row.unprobed_since.getTime()) / 1000)
      : null,
    range: input.range,
    timeline,
    savedCalls24h: saved[0]?.n ?? 0,
  };
}
