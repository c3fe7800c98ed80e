import { z } from "zod";
import type { Deps } from "../context";
import {
  ATTEMPT_TIMEOUT_MS,
  type AttemptResult,
  type DeliveryOptions,
  deliverBuiltin,
} from "./builtin-delivery";
import { deliveryStatements } from "./delivery-statements";
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
  const statements = deliveryStatements(deps.db);
  // Built-in: the event, its outbox row and its claimed deliveries in one statement, shared with
  // the other deliveries starting now; Svix: the event and its outbox row.
  const holdMs = (options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS) + 10_000;
  const claimedAt = new Date();
  const started =
    backend === "builtin"
      ? await statements.start.submit({ eventId, claimedAt, until: new Date(claimedAt.getTime() + holdMs) })
      : null;
  const event = started ? started.event : backend === "svix" ? await statements.load.submit(eventId) : null;
  if (!event) return { status: "done", outcome: "not_deliverable", attempts: [], backend };
  if (event.completedAt) return { status: "done", outcome: event.outcome ?? "done", attempts: [], backend };

  if (backend === "svix") {
    const r = await deliverViaSvix(deps, event);
    const now = new Date();
    const giveUp = r.kind === "retry" && now.getTime() - event.createdAt.getTime() > SVIX_GIVE_UP_MS;
    const finished = r.kind !== "retry" || giveUp;
    const outcome = r.kind === "delivered" ? "delivered" : r.kind === "rejected" ? "rejected" : "exhausted";
    await statements.svixOutbox.submit({
      eventId,
      lastError: r.kind === "delivered" ? null : r.error,
      messageId: r.kind === "delivered" && r.messageId ? r.messageId : null,
      completedAt: finished ? now : null,
      outcome: finished ? outcome : null,
      nextAttemptAt: finished ? null : now,
    });
    if (r.kind === "rejected")
      deps.log.warn({ eventId, error: r.error }, "Svix rejected the message; not retried");
    return finished
      ? { status: "done", outcome, attempts: [], backend }
      : { status: "retry", reason: r.error, attempts: [], backend };
  }

  const r = await deliverBuiltin(deps, event, options, started ?? undefined);
  if (r.retryAt)
    return { status: "retry", at: r.retryAt, reason: "deliveries pending", attempts: r.attempts, backend };
  return { status: "done", outcome: r.outcome ?? "delivered", attempts: r.attempts, backend };
}
