import { applyAuditRetention, type Deps } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/** Keeps each organization's audit log to its plan's audit_log_days. */
export function auditRetention(deps: Deps, stopping?: AbortSignal) {
  return async (job: Job) => {
    parsePayload("audit-retention", job.data);
    return applyAuditRetention(deps, { signal: stopping });
  };
}
