import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { usesSvix } from "./svix-delivery";
import { svixUpdateEndpoint } from "./svix-endpoints";
import {
  endpointEventTypes,
  endpointProviders,
  endpointUrl,
  findTenantEndpoint,
  requireTenant,
  toWebhookEndpointDto,
  type WebhookEndpointDto,
} from "./webhook-endpoint-dto";

export const updateWebhookEndpointInput = z.object({
  organizationId: z.string().min(1),
  endpointId: z.string().min(1),
  url: endpointUrl.optional(),
  description: z.string().trim().max(200).optional(),
  eventTypes: endpointEventTypes.optional(),
  providers: endpointProviders.optional(),
  /** false disables; true re-enables and forgets the failure streak. */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpointInput = z.input<typeof updateWebhookEndpointInput>;

/** Edits an endpoint (URL, filters, enabled) with an audit row. Admin role. */
export async function updateWebhookEndpoint(
  ctx: Ctx,
  raw: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointDto> {
  const input = updateWebhookEndpointInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (usesSvix(ctx.config)) return svixUpdateEndpoint(ctx, input);
  const before = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id: before.id },
      data: {
        url: input.url,
        description: input.description,
        eventTypes: input.eventTypes,
        providers: input.providers,
        ...(input.enabled === true && !before.enabled
          ? { enabled: true, disabledReason: null, failingSince: null }
          : {}),
        ...(input.enabled === false && before.enabled
          ? { enabled: false, disabledReason: "Disabled by a user" }
          : {}),
      },
    });
    const pick = (e: typeof before) => ({
      url: e.url,
      description: e.description,
      eventTypes: e.eventTypes,
      providers: e.providers,
      enabled: e.enabled,
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_endpoint.update",
      targetType: "webhook_endpoint",
      targetId: before.id,
      before: pick(before),
      after: pick(updated),
    });
    return updated;
  });
  return toWebhookEndpointDto(row, ctx.config);
}
