import { z } from "zod";
import type { Ctx } from "../context";
import { requireRole } from "../context";
import { notFound } from "../errors";
import { incidentFallbackFigures } from "./evaluate-provider-incident";
import type { IncidentSample } from "./incident-rules";

export interface IncidentDto {
  id: string;
  projectId: string;
  projectName: string;
  provider: string;
  status: "open" | "resolved";
  openedAt: string;
  resolvedAt: string | null;
  /** Until resolved_at, or until now while open. */
  durationSeconds: number;
  affectedCount: number;
  liveCount: number;
  affectedShare: number;
  peakCount: number;
  peakShare: number;
  instancesInvolved: number;
  failovers: number;
  callsSaved: number;
  fallbackModels: string[];
  /** Affected instances over time (sparkline). */
  samples: IncidentSample[];
}

interface Row {
  id: string;
  project_id: string;
  project_name: string;
  provider: string;
  status: "open" | "resolved";
  opened_at: Date;
  resolved_at: Date | null;
  affected_count: number;
  live_count: number;
  peak_count: number;
  peak_share: number;
  instances: number;
  failovers: number;
  calls_saved: number;
  fallback_models: string[];
  samples: IncidentSample[];
}

function toDto(r: Row, now: Date): IncidentDto {
  const end = r.resolved_at ?? now;
  return {
    id: r.id,
    projectId: r.project_id,
    projectName: r.project_name,
    provider: r.provider,
    status: r.status,
    openedAt: r.opened_at.toISOString(),
    resolvedAt: r.resolved_at?.toISOString() ?? null,
    durationSeconds: Math.max(0, Math.round((end.getTime() - r.opened_at.getTime()) / 1000)),
    affectedCount: r.affected_count,
    liveCount: r.live_count,
    affectedShare: r.live_count > 0 ? r.affected_count / r.live_count : 0,
    peakCount: r.peak_count,
    peakShare: r.peak_share,
    instancesInvolved: r.instances,
    failovers: r.failovers,
    callsSaved: r.calls_saved,
    fallbackModels: r.fallback_models,
    samples: r.samples,
  };
}

/** Open incidents get their running failover figures (resolved ones keep what was recorded). */
async function withRunningFigures(ctx: Ctx, rows: Row[], now: Date): Promise<Row[]> {
  return Promise.all(
    rows.map(async (r) => {
      if (r.status !== "open") return r;
      const f = await incidentFallbackFigures(ctx.db, r.project_id, r.provider, r.opened_at, now);
      return { ...r, failovers: f.failovers, calls_saved: f.callsSaved, fallback_models: f.models };
    }),
  );
}

export const listOpenIncidentsInput = z.object({
  organizationId: z.string().min(1),
  now: z.date().optional(),
});

/**
 * The organization's open incidents, newest first (pending ones, not yet paged, are not shown), for
 * the fleet overview: one query, since every live push refetches it (failover figures are the
 * history's, see listIncidents). Viewer role.
 */
export async function listOpenIncidents(
  ctx: Ctx,
  raw: z.input<typeof listOpenIncidentsInput>,
): Promise<IncidentDto[]> {
  const input = listOpenIncidentsInput.parse(raw);
  if (ctx.organizationId && ctx.organizationId !== input.organizationId) throw notFound("Organization");
  requireRole(ctx, "viewer");
  const now = input.now ?? new Date();
  const rows = await ctx.db.$queryRaw<Row[]>`
    SELECT i.id, i.project_id, p.name AS project_name, i.provider, i.status, i.opened_at, i.resolved_at,
           i.affected_count, i.live_count, i.peak_count, i.peak_share, cardinality(i.instances) AS instances,
           i.failovers, i.calls_saved, i.fallback_models, i.samples
    FROM provider_incidents i JOIN projects p ON p.id = i.project_id AND p.archived_at IS NULL
    WHERE i.organization_id = ${input.organizationId} AND i.resolved_at IS NULL AND i.status = 'open'
    ORDER BY i.opened_at DESC LIMIT 100`;
  return rows.map((r) => toDto(r, now));
}

export const listIncidentsInput = z.object({
  organizationId: z.string().min(1),
  days: z.union([z.literal(30), z.literal(90)]).default(30),
  provider: z.string().min(1).max(64).optional(),
  projectId: z.string().min(1).optional(),
  /** Only open or only resolved incidents (the MTTR figures still count both). */
  status: z.enum(["open", "resolved"]).optional(),
  now: z.date().optional(),
});

export interface IncidentHistoryDto {
  days: number;
  generatedAt: string;
  incidents: IncidentDto[];
  /** Per provider over the window: resolved incidents and their mean time to resolve. */
  mttr: { provider: string; incidents: number; resolved: number; mttrSeconds: number | null }[];
  /** Every provider with an incident in the window (the filter's options). */
  providers: string[];
}

/**
 * Incidents opened in the last 30 or 90 days (newest first, by id on ties, at most 500) with MTTR
 * per provider (mean of resolved_at − opened_at). Viewer role.
 */
export async function listIncidents(
  ctx: Ctx,
  raw: z.input<typeof listIncidentsInput>,
): Promise<IncidentHistoryDto> {
  const input = listIncidentsInput.parse(raw);
  if (ctx.organizationId && ctx.organizationId !== input.organizationId) throw notFound("Organization");
  requireRole(ctx, "viewer");
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - input.days * 86_400_000);
  const provider = input.provider ?? null;
  const projectId = input.projectId ?? null;
  const status = input.status ?? null;
  if (projectId !== null) {
    // Another organization's (or an archived) project is not found, rather than an empty history.
    const project = await ctx.db.project.findFirst({
      where: { id: projectId, organizationId: input.organizationId, archivedAt: null },
      select: { id: true },
    });
    if (!project) throw notFound("Project");
  }
  const [rows, mttr] = await Promise.all([
    ctx.db.$queryRaw<Row[]>`
      SELECT i.id, i.project_id, p.name AS project_name, i.provider, i.status, i.opened_at, i.resolved_at,
             i.affected_count, i.live_count, i.peak_count, i.peak_share, cardinality(i.instances) AS instances,
             i.failovers, i.calls_saved, i.fallback_models, i.samples
      FROM provider_incidents i JOIN projects p ON p.id = i.project_id AND p.archived_at IS NULL
      WHERE i.organization_id = ${input.organizationId} AND i.status <> 'pending' AND i.opened_at >= ${since}
        AND (${provider}::text IS NULL OR i.provider = ${provider})
        AND (${projectId}::text IS NULL OR i.project_id = ${projectId})
        AND (${status}::text IS NULL OR i.status = ${status})
      ORDER BY i.opened_at DESC, i.id DESC LIMIT 500`,
    ctx.db.$queryRaw<{ provider: string; incidents: number; resolved: number; mttr: number | null }[]>`
      SELECT i.provider, count(*)::int AS incidents, count(i.resolved_at)::int AS resolved,
             avg(extract(epoch FROM i.resolved_at - i.opened_at))::float8 AS mttr
      FROM provider_incidents i JOIN projects p ON p.id = i.project_id AND p.archived_at IS NULL
      WHERE i.organization_id = ${input.organizationId} AND i.status <> 'pending' AND i.opened_at >= ${since}
        AND (${projectId}::text IS NULL OR i.project_id = ${projectId})
      GROUP BY i.provider ORDER BY i.provider`,
  ]);
  return {
    days: input.days,
    generatedAt: now.toISOString(),
    incidents: (await withRunningFigures(ctx, rows, now)).map((r) => toDto(r, now)),
    mttr: mttr.map((m) => ({
      provider: m.provider,
      incidents: m.incidents,
      resolved: m.resolved,
      mttrSeconds: m.mttr === null ? null : Math.round(m.mttr),
    })),
    providers: mttr.map((m) => m.provider),
  };
}
