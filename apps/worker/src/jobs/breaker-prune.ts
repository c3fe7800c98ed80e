import { type Deps, pruneBreakerHistory } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";
import type { WorkerMetrics } from "../metrics";

/** Prunes snapshots of long-silent instances and transitions past retention, in small batches. */
export function breakerPrune(deps: Deps, metrics: WorkerMetrics, stopping?: AbortSignal) {
  return async (job: Job) => {
    parsePayload("breaker-prune", job.data);
    const r = await pruneBreakerHistory(deps, { signal: stopping });
    metrics.snapshotsPruned.inc(r.snapshots);
    metrics.transitionsPruned.inc(r.transitions);
    if (r.snapshots + r.transitions > 0) deps.log.info(r, "breaker history pruned");
    return r;
  };
}
