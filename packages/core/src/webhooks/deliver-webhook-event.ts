import { z } from "zod";
import type { Deps } from "../context";
import { type AttemptResult, type DeliveryOptions, deliverBuiltin } from "./builtin-delivery";
import { deliverViaSvix, SVIX_GIVE_UP_MS, usesSvix } from "./svix-delivery";

export const deliverWebhookEventInput = z.object({ eventId: z.string().min(1) });

export type DeliverResult =
  /** Nothing left to do (delivered, finally failed, not deliverable, or already done). */
  | { status: "done"; outcome: string; attempts: AttemptResult[]; backend: "builtin" | "svix" }
  /** Call again at `at` (built-in schedule), or after the job's backoff when `at` is absent (Svix). */
  | { status: "retry"; at?: Date; reason: string; attempts: AttemptResult[]; backend: "builtin" | "svix" };

/**
 * Delivers one webhook event through the configured backend and records the outcome on its outbox
 * row. Idempotent: safe to run any number of times, concurrently or after a crash — finished
 * deliveries are never repeated, and Svix deduplicates by the event id.
 */
export async function deliverWebhookEvent(
  deps: Deps,
  raw: z.input<typeof deliverWebhookEventInput>,
  options?: DeliveryOptions,
): Promise<DeliverResult> {
  const { eventId } = deliverWebhookEventInput.parse(raw);
  const backend = usesSvix(deps.config) ? "svix" : "builtin";
  // One round trip for the event and its outbox row: this runs for every delivery.
  const [event] = await deps.db.$queryRaw<
    {
      id: string;
      organizationId: string;
      projectId: string;
      type: string;
      payload: unknown;
      createdAt: Date;
      completedAt: Date | null;
      outcome: string | null;
    }[]
  >`
    SELECT e.id, e.organization_id AS "organizationId", e.project_id AS "projectId", e.type, e.payload,
           e.created_at AS "createdAt", o.completed_at AS "completedAt", o.outcome
    FROM webhook_events e JOIN webhook_outbox o ON o.event_id = e.id
    WHERE e.id = ${eventId} AND e.deliverable`;
  if (!event) return { status: "done", outcome: "not_deliverable", attempts: [], backend };
  if (event.completedAt) return { status: "done", outcome: event.outcome ?? "done", attempts: [], backend };

  if (backend === "svix") {
    const r = await deliverViaSvix(deps, event);
    const now = new Date();
    const giveUp = r.kind === "retry" && now.getTime() - event.createdAt.getTime() > SVIX_GIVE_UP_MS;
    const finished = r.kind !== "retry" || giveUp;
    const outcome = r.kind === "delivered" ? "delivered" : r.kind === "rejected" ? "rejected" : "exhausted";
    await deps.db.webhookOutbox.update({
      where: { eventId },
      data: {
        attempts: { increment: 1 },
        lastError: r.kind === "delivered" ? null : r.error,
        svixMessageId: r.kind === "delivered" && r.messageId ? r.messageId : undefined,
        ...(finished ? { completedAt: now, outcome, nextAttemptAt: null } : { nextAttemptAt: now }),
      },
    });
    if (r.kind === "rejected")
      deps.log.warn({ eventId, error: r.error }, "Svix rejected the message; not retried");
    return finished
      ? { status: "done", outcome, attempts: [], backend }
      : { status: "retry", reason: r.error, attempts: [], backend };
  }

  const r = await deliverBuiltin(deps, event, options);
  if (r.retryAt)
    return { status: "retry", at: r.retryAt, reason: "deliveries pending", attempts: r.attempts, backend };
  return { status: "done", outcome: r.outcome ?? "delivered", attempts: r.attempts, backend };
}
