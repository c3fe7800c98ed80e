import { type Deps, sweepWebhookOutbox } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/** Re-enqueues delivery jobs that a crash or a Redis loss left behind. */
export function webhookOutboxSweep(deps: Deps) {
  return async (job: Job) => {
    parsePayload("webhook-outbox-sweep", job.data);
    return sweepWebhookOutbox(deps);
  };
}
