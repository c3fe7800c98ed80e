import { Prisma } from "@breakwater/db";
import { z } from "zod";
import type { Ctx } from "../context";
import type { CircuitState } from "./breaker-state";
import {
  DEFAULT_RECOVERY_WINDOW_SECONDS,
  FALLBACK_SERVING_WINDOW_SECONDS,
  HEALTH_LABEL,
  type HealthLabel,
} from "./fleet-status";
import { badCursor, decodeCursor, encodeCursor, visibleProject } from "./provider-page";

/** The instance table's filter: every instance, a live state, or the stale ones. */
export const PROVIDER_INSTANCE_FILTERS = ["all", "Healthy", "Down", "Recovering", "Stale"] as const;
export type ProviderInstanceFilter = (typeof PROVIDER_INSTANCE_FILTERS)[number];

export const listProviderInstancesInput = z.object({
  projectId: z.string().min(1),
  provider: z.string().min(1).max(64),
  status: z.enum(PROVIDER_INSTANCE_FILTERS).default("all"),
  /** The previous page's nextCursor (opaque). */
  cursor: z.string().min(1).max(500).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  now: z.date().optional(),
});

export interface ProviderInstanceDto {
  sdkInstanceId: string;
  state: CircuitState;
  label: HealthLabel;
  /** No report for BREAKER_STALE_SECONDS: greyed, left out of status and counts. */
  stale: boolean;
  failureCount: number;
  successCount: number;
  reportedAt: string;
  lastSeenAt: string;
  firstSeenAt: string;
  stateSince: string | null;
  openEpisodeId: string | null;
  /** Down past the recovery window while its fallback serves: the SDK has not re-probed it. */
  unprobed: boolean;
  /** Last call a fallback served in place of this provider for this instance (last 15 min). */
  lastFallbackAt: string | null;
}

export interface ProviderInstancesPageDto {
  instances: ProviderInstanceDto[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

const STATE_OF = { Healthy: "closed", Down: "open", Recovering: "half_open" } as const;

interface SnapshotRow {
  sdk_instance_id: string;
  state: CircuitState;
  failure_count: number;
  success_count: number;
  reported_at: Date;
  received_at: Date;
  first_seen_at: Date;
  state_since: Date | null;
  open_episode_id: string | null;
}

/**
 * One page of a project's instances of one provider, by keyset on the instance id, so a page costs
 * the same however deep it is and no instance is shown twice or skipped while paging:
 * - all: a range of the primary key (project_id, provider, sdk_instance_id);
 * - Down, Recovering: a range of the partial index of snapshots not closed, (project_id, provider,
 *   state, sdk_instance_id), so a filter matching five instances never walks the healthy ones and
 *   a page during an outage stops at its rows;
 * - Healthy, Stale: the primary key, skipping the other rows (whether an instance is live moves
 *   with the clock, so no index holds it). Each is most of a provider's snapshots in its own case
 *   (a healthy fleet; a fleet that churns), so a page walks few others.
 * Live and stale split at BREAKER_STALE_SECONDS without a report, as everywhere else. The fallback
 * calls behind the "not re-probed" flag are looked up for the page's instances only. Viewer role
 * (checked by the caller); another tenant's project is NOT_FOUND.
 */
export async function listProviderInstances(
  ctx: Ctx,
  raw: z.input<typeof listProviderInstancesInput>,
): Promise<ProviderInstancesPageDto> {
  const input = listProviderInstancesInput.parse(raw);
  const project = await visibleProject(ctx, input.projectId);
  const now = input.now ?? new Date();
  const cutoff = new Date(now.getTime() - ctx.config.BREAKER_STALE_SECONDS * 1000);
  const after = input.cursor ? cursorKeys(input.cursor, input.status) : null;

  const where = [Prisma.sql`project_id = ${project.id} AND provider = ${input.provider}`];
  if (input.status === "Stale") where.push(Prisma.sql`received_at < ${cutoff}`);
  else if (input.status !== "all") {
    // The state as a literal (one of three constants), not a parameter: the planner must see that
    // Down and Recovering are not 'closed' to use the partial index of snapshots not closed.
    const state = Prisma.raw(`'${STATE_OF[input.status]}'::"CircuitState"`);
    where.push(Prisma.sql`state = ${state} AND received_at >= ${cutoff}`);
  }
  if (after) where.push(Prisma.sql`sdk_instance_id > ${after}`);
  const rows = await ctx.db.$queryRaw<SnapshotRow[]>`
    SELECT sdk_instance_id, state::text AS state, failure_count, success_count, reported_at, received_at,
      first_seen_at, state_since, open_episode_id
    FROM breaker_snapshots
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY sdk_instance_id
    LIMIT ${input.limit + 1}`;
  const page = rows.slice(0, input.limit);

  // The last call a fallback served in place of this provider, for the page's instances only.
  const servingSince = new Date(now.getTime() - FALLBACK_SERVING_WINDOW_SECONDS * 1000);
  const served =
    page.length === 0
      ? []
      : await ctx.db.$queryRaw<{ sdk_instance_id: string; last_served: Date }[]>`
      SELECT sdk_instance_id, max("timestamp") AS last_served FROM metadata_events
      WHERE project_id = ${project.id} AND "timestamp" >= ${servingSince} AND is_provider_fallback
        AND status = 'success' AND requested_provider = ${input.provider} AND provider <> ${input.provider}
        AND sdk_instance_id = ANY(${page.map((r) => r.sdk_instance_id)}::text[])
      GROUP BY 1`;
  const lastServed = new Map(served.map((r) => [r.sdk_instance_id, r.last_served]));
  const probeCutoff = now.getTime() - DEFAULT_RECOVERY_WINDOW_SECONDS * 1000;

  const last = page[page.length - 1];
  return {
    nextCursor:
      rows.length > input.limit && last ? encodeCursor({ f: input.status, id: last.sdk_instance_id }) : null,
    instances: page.map((s) => {
      const stale = s.received_at.getTime() < cutoff.getTime();
      const lastFallback = lastServed.get(s.sdk_instance_id) ?? null;
      return {
        sdkInstanceId: s.sdk_instance_id,
        state: s.state,
        label: HEALTH_LABEL[s.state],
        stale,
        failureCount: s.failure_count,
        successCount: s.success_count,
        reportedAt: s.reported_at.toISOString(),
        lastSeenAt: s.received_at.toISOString(),
        firstSeenAt: s.first_seen_at.toISOString(),
        stateSince: s.state_since?.toISOString() ?? null,
        openEpisodeId: s.open_episode_id,
        unprobed:
          !stale &&
          s.state === "open" &&
          s.state_since !== null &&
          s.state_since.getTime() < probeCutoff &&
          lastFallback !== null &&
          lastFallback.getTime() >= s.state_since.getTime(),
        lastFallbackAt: lastFallback?.toISOString() ?? null,
      };
    }),
  };
}

/** A cursor's instance id; one made for another filter (or tampered with) is INVALID, never a wrong page. */
function cursorKeys(cursor: string, status: ProviderInstanceFilter): string {
  const keys = decodeCursor(cursor);
  if (keys.f !== status || typeof keys.id !== "string" || keys.id.length === 0) throw badCursor();
  return keys.id;
}
