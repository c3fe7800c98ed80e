import { type Deps, deliverWebhookEvent, EndpointLanes, webhookEndpointConcurrency } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import { DelayedError, type Job } from "bullmq";
import type { WorkerMetrics } from "../metrics";

/** Delivers one event; a scheduled retry moves this same job to delayed (not an attempt of the job). */
export function webhookDeliver(deps: Deps, metrics: WorkerMetrics) {
  // One set of lanes per process: a slow endpoint holds at most its lane of this worker's slots,
  // and a busy healthy one (running and waiting) at most three quarters of them.
  const slots = deps.config.WEBHOOK_CONCURRENCY;
  const perEndpoint = webhookEndpointConcurrency(deps.config);
  const lanes = new EndpointLanes({
    perEndpoint,
    slowSlots: Math.max(1, Math.floor(slots / 4)),
    maxWaiting: Math.max(0, slots - perEndpoint - Math.max(1, Math.floor(slots / 4))),
  });
  return async (job: Job, token?: string) => {
    const { eventId } = parsePayload("webhook-deliver", job.data);
    const r = await deliverWebhookEvent(deps, { eventId }, { lanes });
    for (const a of r.attempts) {
      const result = a.success ? "success" : a.statusCode === null ? "error" : "failure";
      metrics.attempts.inc({ result });
      metrics.attemptLatency.observe({ result }, a.latencyMs / 1000);
    }
    metrics.deliveries.inc({ backend: r.backend, outcome: r.status === "retry" ? "retry" : r.outcome });
    if (r.status === "retry") {
      if (r.at) {
        await job.moveToDelayed(r.at.getTime(), token);
        throw new DelayedError();
      }
      // Svix 5xx/429/timeout: let BullMQ's exponential backoff retry the job.
      throw new Error(r.reason);
    }
    return { outcome: r.outcome };
  };
}
