import { type Deps, repriceUnpricedEvents } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/**
 * Re-prices one model's unpriced events (the run row carries the model and the cursor, so a
 * retried or stalled job resumes where the last committed batch ended).
 */
export function priceReprice(deps: Deps) {
  return async (job: Job) => {
    const { runId } = parsePayload("price-reprice", job.data);
    const run = await repriceUnpricedEvents(deps, runId);
    return { repriced: run.repriced, skipped: run.skipped };
  };
}
