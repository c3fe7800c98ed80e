import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import {
  HEALTH_LABEL,
  type HealthLabel,
  type InstanceCounts,
  type ProviderStatus,
  providerStatus,
  statusSummary,
  type UnhealthySegment,
  type UptimeDay,
  uptimeBars,
} from "./fleet-status";
import type { CircuitState } from "./record-breaker-report";

export const getProviderHealthInput = z.object({
  projectId: z.string().min(1),
  provider: z.string().min(1).max(64),
  /** Days of uptime bars (90 on the provider page). */
  days: z.number().int().min(1).max(365).default(90),
  transitionsLimit: z.number().int().min(1).max(1000).default(100),
  now: z.date().optional(),
});

export interface ProviderHealthDto {
  projectId: string;
  projectName: string;
  provider: string;
  generatedAt: string;
  status: ProviderStatus;
  summary: string;
  counts: InstanceCounts;
  instances: {
    sdkInstanceId: string;
    state: CircuitState;
    label: HealthLabel;
    stale: boolean;
    failureCount: number;
    successCount: number;
    reportedAt: string;
    lastSeenAt: string;
    firstSeenAt: string;
    stateSince: string | null;
    openEpisodeId: string | null;
  }[];
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
 * Everything the provider page shows for one project: live and stale instances, the transition
 * timeline, open and recent episodes, and daily uptime bars (Down 1.0, Recovering 0.3). Viewer
 * role; another tenant's project is NOT_FOUND.
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
  const cutoff = now.getTime() - ctx.config.BREAKER_STALE_SECONDS * 1000;
  const windowStart = new Date(now.getTime() - input.days * 86_400_000);
  const where = { projectId: project.id, provider: input.provider };

  const [snapshots, transitions, openEpisodes, recent, windowEpisodes] = await Promise.all([
    ctx.db.breakerSnapshot.findMany({ where, orderBy: { sdkInstanceId: "asc" } }),
    ctx.db.breakerTransition.findMany({
      where,
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
  ]);

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

  const counts: InstanceCounts = { healthy: 0, down: 0, recovering: 0, stale: 0 };
  const instances = snapshots.map((s) => {
    const stale = s.receivedAt.getTime() < cutoff;
    if (stale) counts.stale++;
    else if (s.state === "closed") counts.healthy++;
    else if (s.state === "open") counts.down++;
    else counts.recovering++;
    return {
      sdkInstanceId: s.sdkInstanceId,
      state: s.state,
      label: HEALTH_LABEL[s.state],
      stale,
      failureCount: s.failureCount,
      successCount: s.successCount,
      reportedAt: s.reportedAt.toISOString(),
      lastSeenAt: s.receivedAt.toISOString(),
      firstSeenAt: s.firstSeenAt.toISOString(),
      stateSince: s.stateSince?.toISOString() ?? null,
      openEpisodeId: s.openEpisodeId,
    };
  });
  const seconds = (a: Date, b: Date) => Math.max(0, Math.round((b.getTime() - a.getTime()) / 1000));

  return {
    projectId: project.id,
    projectName: project.name,
    provider: input.provider,
    generatedAt: now.toISOString(),
    status: providerStatus(counts),
    summary: statusSummary(counts),
    counts,
    instances,
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
  };
}
