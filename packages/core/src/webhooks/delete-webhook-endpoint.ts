import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { usesSvix } from "./svix-delivery";
import { svixDeleteEndpoint } from "./svix-endpoints";
import { findTenantEndpoint, requireTenant } from "./webhook-endpoint-dto";

export const deleteWebhookEndpointInput = z.object({
  organizationId: z.string().min(1),
  endpointId: z.string().min(1),
});

/** Deletes an endpoint and its delivery history, with an audit row. Admin role. */
export async function deleteWebhookEndpoint(
  ctx: Ctx,
  raw: z.input<typeof deleteWebhookEndpointInput>,
): Promise<void> {
  const input = deleteWebhookEndpointInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (usesSvix(ctx.config)) return svixDeleteEndpoint(ctx, input.organizationId, input.endpointId);
  const e = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  await ctx.db.$transaction(async (tx) => {
    await tx.webhookEndpoint.delete({ where: { id: e.id } });
    await recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_endpoint.delete",
      targetType: "webhook_endpoint",
      targetId: e.id,
      before: { url: e.url, eventTypes: e.eventTypes, providers: e.providers, enabled: e.enabled },
    });
  });
}
