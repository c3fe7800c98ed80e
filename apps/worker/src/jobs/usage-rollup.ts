import { type Deps, rollUpUsage } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/** One rollup step: rebuilds the hours that received events since the watermark (bounded work). */
export function usageRollup(deps: Deps, stopping?: AbortSignal) {
  return async (job: Job) => {
    parsePayload("usage-rollup", job.data);
    const r = await rollUpUsage(deps.db, { timeBudgetMs: 10_000, signal: stopping });
    if (!r.caughtUp && r.ran)
      deps.log.info({ chunks: r.chunks, hours: r.hoursRebuilt }, "usage rollup catching up");
    return {
      ran: r.ran,
      chunks: r.chunks,
      hoursRebuilt: r.hoursRebuilt,
      caughtUp: r.caughtUp,
      receivedBefore: r.receivedBefore?.toISOString() ?? null,
    };
  };
}
