import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { conflict, invalid, notFound } from "../errors";
import { newId } from "../ids";
import { type AttemptResult, attemptDelivery } from "./builtin-delivery";
import { usesSvix } from "./svix-delivery";
import { svixReplay } from "./svix-endpoints";
import { findTenantEndpoint, requireTenant } from "./webhook-endpoint-dto";

export const replayWebhookMessageInput = z.object({
  organizationId: z.string().min(1),
  eventId: z.string().min(1),
  endpointId: z.string().min(1),
});

/**
 * Sends an event to one endpoint again, now, with the same webhook-id (receivers deduplicate on
 * it), and records the attempt as a replay. Works for any event of the organization — also one
 * the plan did not deliver, or one the endpoint never got. Admin role.
 */
export async function replayWebhookMessage(
  ctx: Ctx,
  raw: z.input<typeof replayWebhookMessageInput>,
): Promise<AttemptResult> {
  const input = replayWebhookMessageInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (usesSvix(ctx.config)) return svixReplay(ctx, input.organizationId, input.eventId, input.endpointId);
  const event = await ctx.db.webhookEvent.findUnique({ where: { id: input.eventId } });
  if (!event || event.organizationId !== input.organizationId) throw notFound("Webhook message");
  const endpoint = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  if (!endpoint.enabled) throw invalid("This endpoint is disabled; enable it before replaying to it");

  await ctx.db.webhookDelivery.createMany({
    data: [
      { id: newId("dlv"), eventId: event.id, endpointId: endpoint.id, status: "failed", nextAttemptAt: null },
    ],
    skipDuplicates: true,
  });
  const delivery = await ctx.db.webhookDelivery.findUniqueOrThrow({
    where: { eventId_endpointId: { eventId: event.id, endpointId: endpoint.id } },
  });
  const result = await attemptDelivery(ctx, { deliveryId: delivery.id, event, trigger: "replay" });
  if (!result)
    throw conflict("A delivery of this message to this endpoint is in progress; try again in a moment");
  await ctx.db.$transaction((tx) =>
    recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_message.replay",
      targetType: "webhook_event",
      targetId: event.id,
      after: { endpointId: endpoint.id, success: result.success, responseStatus: result.statusCode },
    }),
  );
  return result;
}
