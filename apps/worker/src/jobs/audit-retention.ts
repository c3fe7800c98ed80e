import { applyAuditRetention, type Deps, pruneIdempotentRequests } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/**
 * Keeps each organization's audit log to its plan's audit_log_days, and drops the management API's
 * stored idempotent answers once their 24 hours are over.
 */
export function auditRetention(deps: Deps, stopping?: AbortSignal) {
  return async (job: Job) => {
    parsePayload("audit-retention", job.data);
    const audit = await applyAuditRetention(deps, { signal: stopping });
    const idempotentAnswers = await pruneIdempotentRequests(deps.db);
    return { ...audit, idempotentAnswers };
  };
}
