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
 * After commit: asks the queue to deliver the events now (jobId = event id). Best effort — when
 * Redis is unavailable the outbox sweeper enqueues them within seconds, so this never throws.
 */
export async function enqueueWebhookDeliveries(deps: Deps, eventIds: string[]): Promise<void> {
  if (!deps.jobs || eventIds.length === 0) return;
  await Promise.all(
    eventIds.map((eventId) =>
      deps.jobs!.enqueue("webhook-deliver", { eventId }, { jobId: eventId }).catch((err: unknown) => {
        deps.log.warn(
          { eventId, err: (err as Error).message },
          "webhook enqueue failed; the outbox sweeper will retry",
        );
      }),
    ),
  );
}
