import { applyUsageRetention, type Deps } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/** Deletes raw metadata events past each project's retention (bounded batches; rollups stay). */
export function usageRetention(deps: Deps, stopping?: AbortSignal) {
  return async (job: Job) => {
    parsePayload("usage-retention", job.data);
    const r = await applyUsageRetention(deps.db, { signal: stopping });
    if (r.deleted > 0)
      deps.log.info({ deleted: r.deleted, more: r.more }, "usage retention deleted raw events");
    return r;
  };
}
