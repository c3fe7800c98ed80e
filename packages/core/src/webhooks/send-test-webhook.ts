import { z } from "zod";
import type { Ctx } from "../context";
import {
  WEBHOOK_EVENT_SAMPLES,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventPayload,
} from "../events/breaker-events";
import { newId } from "../ids";
import { type AttemptResult, attemptDelivery } from "./builtin-delivery";
import { usesSvix } from "./svix-delivery";
import { svixSendTest } from "./svix-endpoints";
import { findTenantEndpoint, requireTenant } from "./webhook-endpoint-dto";

export const sendTestWebhookInput = z.object({
  organizationId: z.string().min(1),
  endpointId: z.string().min(1),
  eventType: z.enum(WEBHOOK_EVENT_TYPES).default("circuit_breaker_opened"),
});

/**
 * Sends the event type's sample payload (fresh ids and timestamps) to one endpoint now, signed like
 * any message, and logs it as a test message. Works on a disabled endpoint, so a fixed receiver can
 * be checked before re-enabling it. Admin role.
 */
export async function sendTestWebhook(
  ctx: Ctx,
  raw: z.input<typeof sendTestWebhookInput>,
): Promise<AttemptResult & { eventId: string }> {
  const input = sendTestWebhookInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (usesSvix(ctx.config)) return svixSendTest(ctx, input.organizationId, input.endpointId, input.eventType);
  const endpoint = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  const sample = WEBHOOK_EVENT_SAMPLES[input.eventType];
  const now = new Date();
  const eventId = newId("evt");
  const project = endpoint.projectId
    ? await ctx.db.project.findUnique({ where: { id: endpoint.projectId }, select: { id: true, name: true } })
    : null;
  const payload = {
    ...sample,
    timestamp: now.toISOString(),
    data: {
      ...sample.data,
      event_id: eventId,
      project_id: project?.id ?? sample.data.project_id,
      project_name: project?.name ?? sample.data.project_name,
      dashboard_url: `${ctx.config.PUBLIC_URL.replace(/\/+$/, "")}/webhooks`,
    },
  } as WebhookEventPayload;
  const deliveryId = newId("dlv");
  await ctx.db.$transaction(async (tx) => {
    await tx.webhookEvent.create({
      data: {
        id: eventId,
        organizationId: input.organizationId,
        projectId: payload.data.project_id,
        type: payload.type,
        payload: payload as object,
        deliverable: true,
        isTest: true,
        createdAt: now,
      },
    });
    await tx.webhookDelivery.create({
      data: { id: deliveryId, eventId, endpointId: endpoint.id, status: "pending", nextAttemptAt: null },
    });
  });
  const result = await attemptDelivery(ctx, {
    deliveryId,
    event: { id: eventId, type: payload.type, payload },
    trigger: "test",
  });
  // The delivery row is brand new, so nobody else can hold its claim.
  return { ...(result as AttemptResult), eventId };
}
