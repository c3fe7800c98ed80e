import type { PrismaClient } from "@breakwater/db";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { hourOf, lockProjectUsage, REBUILD_TX_OPTIONS, retentionFloorOf } from "./rebuild-usage-rollups";
import { surelySeenBefore, USAGE_WATERMARK_ID } from "./roll-up-usage";

const DAY_MS = 86_400_000;

export interface ApplyUsageRetentionOptions {
  now?: Date;
  /** Rows per DELETE statement (each its own short transaction). */
  batchSize?: number;
  /** DELETE statements that delete something, per run over all projects; the next run continues. */
  maxBatches?: number;
  /** Only these projects (default: every project). */
  projectIds?: string[];
  /** Aborted when the worker is stopping: no new project is started. */
  signal?: AbortSignal;
}

export interface ApplyUsageRetentionResult {
  deleted: number;
  batches: number;
  /** True when the batch budget ran out before every project was done. */
  more: boolean;
  /** Projects whose floor rose. */
  floorsRaised: number;
}

/** Effective retention_days per project (project override > organization override > plan > default; null = forever). */
export async function retentionByProject(
  db: PrismaClient,
  now: Date,
  projectIds?: string[],
): Promise<Map<string, number | null>> {
  const projects = await db.project.findMany({
    where: projectIds ? { id: { in: projectIds } } : {},
    select: { id: true, organizationId: true },
  });
  const projectOverrides = await db.entitlementOverride.findMany({
    where: {
      featureKey: "retention_days",
      projectId: { not: null },
      OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
    },
    select: { projectId: true },
  });
  const special = new Set(projectOverrides.map((o) => o.projectId as string));
  const byOrg = new Map<string, number | null>();
  const out = new Map<string, number | null>();
  for (const p of projects) {
    if (special.has(p.id)) {
      out.set(p.id, (await resolveEntitlements(db, p.organizationId, p.id, now)).values.retention_days);
      continue;
    }
    if (!byOrg.has(p.organizationId)) {
      byOrg.set(
        p.organizationId,
        (await resolveEntitlements(db, p.organizationId, undefined, now)).values.retention_days,
      );
    }
    out.set(p.id, byOrg.get(p.organizationId) ?? null);
  }
  return out;
}

/**
 * Deletes raw metadata events older than each project's effective `retention_days` (whole UTC
 * hours), in bounded batches; rollups are never touched. Before deleting, it raises the project's
 * retention floor (under the project's usage lock) so no rebuild can recompute those hours from
 * the remains — and it never passes an event the rollup scheduler has not yet seen: the floor
 * stops at the hour of the oldest such event until the scheduler has rolled it up.
 */
export async function applyUsageRetention(
  db: PrismaClient,
  opts: ApplyUsageRetentionOptions = {},
): Promise<ApplyUsageRetentionResult> {
  const now = opts.now ?? new Date();
  const batchSize = opts.batchSize ?? 5_000;
  let budget = opts.maxBatches ?? 50;
  const result: ApplyUsageRetentionResult = { deleted: 0, batches: 0, more: false, floorsRaised: 0 };
  const days = await retentionByProject(db, now, opts.projectIds);

  for (const [projectId, retentionDays] of [...days].sort(([a], [b]) => a.localeCompare(b))) {
    if (retentionDays === null || retentionDays < 0) continue;
    // A stopping worker starts no new project; the next scheduled run picks up from here.
    if (budget <= 0 || opts.signal?.aborted) {
      result.more = true;
      break;
    }
    const cutoff = hourOf(new Date(now.getTime() - retentionDays * DAY_MS));
    const floor = await db.$transaction(async (tx) => {
      await lockProjectUsage(tx, projectId);
      const old = await retentionFloorOf(tx, projectId);
      const mark = await tx.usageRollupWatermark.findUnique({ where: { id: USAGE_WATERMARK_ID } });
      // Events the scheduler may not have rolled up yet: from where its next scan starts.
      const seenBefore = mark ? surelySeenBefore(mark.receivedBefore, mark.updatedAt) : new Date(0);
      const [pending] = await tx.$queryRaw<{ oldest: Date | null }[]>`
        SELECT min("timestamp") AS oldest FROM metadata_events
         WHERE project_id = ${projectId} AND "timestamp" < ${cutoff}
           AND "timestamp" >= ${old ?? new Date(0)} AND received_at >= ${seenBefore}`;
      let next = cutoff;
      if (pending?.oldest && pending.oldest < next) next = hourOf(pending.oldest);
      if (old && old >= next) return old;
      await tx.usageRetentionFloor.upsert({
        where: { projectId },
        create: { projectId, retainedFrom: next },
        update: { retainedFrom: next },
      });
      result.floorsRaised++;
      return next;
    }, REBUILD_TX_OPTIONS);

    // The floor is committed: every hour before it is final, so its raw events can go. Only
    // batches that delete something spend the budget, so projects with nothing to delete never
    // starve the ones after them.
    for (;;) {
      if (budget <= 0) {
        result.more = true;
        break;
      }
      result.batches++;
      const n = await db.$executeRaw`
        DELETE FROM metadata_events WHERE "timestamp" < ${floor} AND (id, "timestamp") IN (
          SELECT id, "timestamp" FROM metadata_events WHERE project_id = ${projectId} AND "timestamp" < ${floor}
           LIMIT ${batchSize})`;
      result.deleted += n;
      if (n > 0) budget--;
      if (n < batchSize) break;
    }
  }
  return result;
}
