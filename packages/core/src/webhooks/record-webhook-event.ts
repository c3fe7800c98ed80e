import type { Tx } from "@breakwater/db";
import type { Deps } from "../context";
import type { BreakerEventPayload } from "../events/breaker-events";

export interface NewWebhookEvent {
  id: string;
  organizationId: string;
  projectId: string;
  episodeId: string | null;
  payload: BreakerEventPayload;
  /** The entitlement decision at transition time; undeliverable events are kept for the log only. */
  deliverable: boolean;
  isTest?: boolean;
  now: Date;
}

/**
 * Writes an event and, when deliverable, its outbox row — inside the caller's transaction, so the
 * event exists exactly when the change that fired it does.
 */
export async function recordWebhookEvent(tx: Tx, e: NewWebhookEvent): Promise<void> {
  await tx.webhookEvent.create({
    data: {
      id: e.id,
      organizationId: e.organizationId,
      projectId: e.projectId,
      type: e.payload.type,
      payload: e.payload as object,
      deliverable: e.deliverable,
      isTest: e.isTest ?? false,
      episodeId: e.episodeId,
      createdAt: e.now,
    },
  });
  if (e.deliverable) {
    await tx.webhookOutbox.create({ data: { eventId: e.id, createdAt: e.now, nextAttemptAt: e.now } });
  }
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
