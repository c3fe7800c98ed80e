import type { Deps } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";

const DAY_MS = 24 * 3600 * 1000;

export interface AuditRetentionResult {
  organizations: number;
  deleted: number;
}

/**
 * Deletes each organization's audit events older than its effective `audit_log_days`, in batches
 * of at most `batchSize` rows (each its own short statement, so no long lock or huge transaction).
 * Idempotent: a second run finds nothing left to delete. Events without an organization (operator
 * actions on plans and the catalogue) are deployment history and are kept.
 */
export async function applyAuditRetention(
  deps: Pick<Deps, "db" | "log">,
  opts: {
    now?: Date;
    batchSize?: number;
    organizationIds?: string[];
    /** Aborted when the worker is stopping: no new organization is started (the next run resumes). */
    signal?: AbortSignal;
  } = {},
): Promise<AuditRetentionResult> {
  const now = opts.now ?? new Date();
  const batchSize = opts.batchSize ?? 5_000;
  let deleted = 0;
  let organizations = 0;
  let afterId = "";
  for (;;) {
    const orgs = opts.organizationIds
      ? afterId
        ? []
        : opts.organizationIds.map((id) => ({ id }))
      : await deps.db.organization.findMany({
          where: { id: { gt: afterId } },
          select: { id: true },
          orderBy: { id: "asc" },
          take: 500,
        });
    if (orgs.length === 0 || opts.signal?.aborted) break;
    afterId = orgs[orgs.length - 1]!.id;
    for (const { id } of orgs) {
      if (opts.signal?.aborted) break;
      organizations++;
      const ent = await resolveEntitlements(deps.db, id, undefined, now);
      const cutoff = new Date(now.getTime() - Number(ent.values.audit_log_days) * DAY_MS);
      for (;;) {
        const n = await deps.db.$executeRaw`
          DELETE FROM audit_events WHERE id IN (
            SELECT id FROM audit_events
            WHERE organization_id = ${id} AND created_at < ${cutoff}
            ORDER BY created_at LIMIT ${batchSize})`;
        deleted += n;
        if (n < batchSize) break;
      }
    }
  }
  if (deleted > 0) deps.log.info({ deleted, organizations }, "audit retention applied");
  return { organizations, deleted };
}
