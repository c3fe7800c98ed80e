import { closeStaleEpisodes, type Deps } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";
import type { WorkerMetrics } from "../metrics";

/** Closes the open episodes of instances that stopped reporting. */
export function breakerStaleSweep(deps: Deps, metrics: WorkerMetrics) {
  return async (job: Job) => {
    parsePayload("breaker-stale-sweep", job.data);
    const r = await closeStaleEpisodes(deps);
    if (r.closed > 0) metrics.expired.inc({}, r.closed);
    return { closed: r.closed };
  };
}
