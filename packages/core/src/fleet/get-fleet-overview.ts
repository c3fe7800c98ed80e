import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { type InstanceCounts, type ProviderStatus, providerStatus, statusSummary } from "./fleet-status";

export const getFleetOverviewInput = z.object({
  organizationId: z.string().min(1),
  now: z.date().optional(),
});

export interface FleetCell extends InstanceCounts {
  status: ProviderStatus;
  /** e.g. "2 of 7 instances Down". */
  summary: string;
  openEpisodes: number;
  /** Since when the worst live instance is in its state (Down/Recovering), for "Down for 12 min". */
  since: string | null;
  lastReportAt: string;
}

export interface FleetOverviewDto {
  generatedAt: string;
  staleAfterSeconds: number;
  /** Every provider reported in the organization: the grid's columns. */
  providers: string[];
  projects: { id: string; name: string; cells: Record<string, FleetCell> }[];
  totals: Record<ProviderStatus, number>;
}

interface Row {
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
}

/**
 * The fleet grid: every project × provider of the organization with its status (stale instances
 * excluded) and counts, from one aggregate over the latest snapshots. Viewer role.
 */
export async function getFleetOverview(
  ctx: Ctx,
  raw: z.input<typeof getFleetOverviewInput>,
): Promise<FleetOverviewDto> {
  const input = getFleetOverviewInput.parse(raw);
  if (ctx.organizationId && ctx.organizationId !== input.organizationId) throw notFound("Organization");
  const now = input.now ?? new Date();
  const cutoff = new Date(now.getTime() - ctx.config.BREAKER_STALE_SECONDS * 1000);
  const projects = await ctx.db.project.findMany({
    where: { organizationId: input.organizationId, archivedAt: null },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const ids = projects.map((p) => p.id);
  const rows =
    ids.length === 0
      ? []
      : await ctx.db.$queryRaw<Row[]>`
    SELECT project_id, provider,
      count(*) FILTER (WHERE received_at >= ${cutoff} AND state = 'closed')::int AS healthy,
      count(*) FILTER (WHERE received_at >= ${cutoff} AND state = 'open')::int AS down,
      count(*) FILTER (WHERE received_at >= ${cutoff} AND state = 'half_open')::int AS recovering,
      count(*) FILTER (WHERE received_at < ${cutoff})::int AS stale,
      count(*) FILTER (WHERE open_episode_id IS NOT NULL)::int AS open_episodes,
      min(state_since) FILTER (WHERE received_at >= ${cutoff} AND state = 'open') AS down_since,
      min(state_since) FILTER (WHERE received_at >= ${cutoff} AND state = 'half_open') AS recovering_since,
      max(received_at) AS last_report
    FROM breaker_snapshots
    WHERE project_id = ANY(${ids}::text[])
    GROUP BY project_id, provider`;

  const providers = [...new Set(rows.map((r) => r.provider))].sort();
  const totals: Record<ProviderStatus, number> = { Healthy: 0, Down: 0, Recovering: 0, Unknown: 0 };
  const cellsByProject = new Map<string, Record<string, FleetCell>>();
  for (const r of rows) {
    const counts = { healthy: r.healthy, down: r.down, recovering: r.recovering, stale: r.stale };
    const status = providerStatus(counts);
    totals[status]++;
    const since = status === "Down" ? r.down_since : status === "Recovering" ? r.recovering_since : null;
    const cells = cellsByProject.get(r.project_id) ?? {};
    cells[r.provider] = {
      ...counts,
      status,
      summary: statusSummary(counts),
      openEpisodes: r.open_episodes,
      since: since?.toISOString() ?? null,
      lastReportAt: r.last_report.toISOString(),
    };
    cellsByProject.set(r.project_id, cells);
  }
  return {
    generatedAt: now.toISOString(),
    staleAfterSeconds: ctx.config.BREAKER_STALE_SECONDS,
    providers,
    projects: projects.map((p) => ({ id: p.id, name: p.name, cells: cellsByProject.get(p.id) ?? {} })),
    totals,
  };
}
