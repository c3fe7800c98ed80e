import type { Tx } from "@breakwater/db";
import type { Deps } from "../context";
import type { WebhookEventPayload } from "../events/breaker-events";

export interface NewWebhookEvent {
  id: string;
  organizationId: string;
  projectId: string;
  episodeId: string | null;
  payload: WebhookEventPayload;
  /** The entitlement decision when the event fired; undeliverable events are kept for the log only. */
  deliverable: boolean;
  isTest?: boolean;
  now: Date;
}

/**
 * Writes an event and, when deliverable, its outbox row — inside the caller's transaction, so the
 * event exists exactly when the change that fired it does.
 */
export async function recordWebhookEvent(tx: Tx, e: NewWebhookEvent): Promise<void> {
  if (e.deliverable && webhookJobPriority(e.payload.type) === undefined) rememberUrgent(e.id);
  // One statement for both rows: this runs inside the breaker report's row-locked transaction.
  await tx.$executeRaw`
    WITH event AS (
      INSERT INTO webhook_events (id, organization_id, project_id, type, payload, deliverable, is_test, episode_id, created_at)
      VALUES (${e.id}, ${e.organizationId}, ${e.projectId}, ${e.payload.type}, ${JSON.stringify(e.payload)}::jsonb,
              ${e.deliverable}, ${e.isTest ?? false}, ${e.episodeId}, ${e.now})
      RETURNING id
    )
    INSERT INTO webhook_outbox (event_id, created_at, next_attempt_at)
    SELECT id, ${e.now}, ${e.now} FROM event WHERE ${e.deliverable}`;
}

/**
 * The queue priority of an event type's delivery job. Per-instance breaker events are the bulk of
 * an outage (two per SDK instance): they go behind everything else on a backlog, so a provider
 * incident or a budget alert recorded behind 40,000 of them is taken next (BullMQ takes waiting
 * jobs without a priority before any prioritized one). Their own order (an instance's closed after
 * its opened) is kept by the sender, whatever the queue order.
 */
export function webhookJobPriority(type: string): number | undefined {
  return type === "circuit_breaker_opened" || type === "circuit_breaker_closed" ? BULK_PRIORITY : undefined;
}
const BULK_PRIORITY = 10;

/**
 * Urgent events (incidents, budget alerts) this process recorded and has not enqueued yet. The
 * callers enqueue by id after their commit; an id found here gets no priority (taken first), any
 * other id is taken for a per-instance breaker event — the bulk: breaker reports write their events
 * in batches of their own and enqueue them by id. Callers that know the type may pass it instead.
 * Bounded: an entry a rolled-back transaction left is dropped with the oldest.
 */
const urgentIds = new Set<string>();
const MAX_REMEMBERED = 10_000;
function rememberUrgent(id: string) {
  if (urgentIds.size >= MAX_REMEMBERED) {
    const oldest = urgentIds.values().next();
    if (!oldest.done) urgentIds.delete(oldest.value);
  }
  urgentIds.add(id);
}

/**
 * After commit: asks the queue to deliver the events now (jobId = event id), breaker events behind
 * the rest (webhookJobPriority). Best effort — when Redis is unavailable the outbox sweeper
 * enqueues them within seconds, so this never throws.
 */
export async function enqueueWebhookDeliveries(
  deps: Deps,
  events: (string | { id: string; type: string })[],
): Promise<void> {
  if (!deps.jobs || events.length === 0) return;
  const jobs = events.map((e) => {
    const eventId = typeof e === "string" ? e : e.id;
    const urgent = typeof e === "string" ? urgentIds.has(e) : webhookJobPriority(e.type) === undefined;
    urgentIds.delete(eventId);
    return { payload: { eventId }, opts: { jobId: eventId, priority: urgent ? undefined : BULK_PRIORITY } };
  });
  // An outage's thousands of events a second are added in bulk: a round trip per chunk, not per job.
  await Promise.all(
    chunks(jobs, ENQUEUE_CHUNK).map((chunk) =>
      deps.jobs!.enqueueMany("webhook-deliver", chunk).catch((err: unknown) => {
        deps.log.warn(
          { events: chunk.length, first: chunk[0]!.payload.eventId, err: (err as Error).message },
          "webhook enqueue failed; the outbox sweeper will retry",
        );
      }),
    ),
  );
}

/** Jobs per bulk add. */
const ENQUEUE_CHUNK = 500;

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let n = 0; n < xs.length; n += size) out.push(xs.slice(n, n + size));
  return out;
}
