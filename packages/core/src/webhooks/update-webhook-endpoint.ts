import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { svixFormatRefused } from "./create-webhook-endpoint";
import { sealEndpointSecret } from "./endpoint-secrets";
import { usesSvix } from "./svix-delivery";
import { svixUpdateEndpoint } from "./svix-endpoints";
import {
  checkEndpointFormat,
  endpointEventTypes,
  endpointFormat,
  endpointProviders,
  endpointRoutingKey,
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
  format: endpointFormat.optional(),
  /** PagerDuty: a new routing key (omitted keeps the stored one). */
  routingKey: endpointRoutingKey.optional(),
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
  if (usesSvix(ctx.config)) {
    if (input.format && input.format !== "standard") throw svixFormatRefused();
    return svixUpdateEndpoint(ctx, input);
  }
  const before = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  // The endpoint as it would be after the edit must fit its format; a refused edit writes nothing.
  const format = input.format ?? (before.format as NonNullable<typeof input.format>);
  checkEndpointFormat({
    format,
    url: input.url ?? before.url,
    eventTypes: input.eventTypes ?? before.eventTypes,
    hasRoutingKey: Boolean(input.routingKey) || (format === "pagerduty" && before.routingKey !== null),
  });
  const routingKey =
    format !== "pagerduty"
      ? null
      : input.routingKey
        ? sealEndpointSecret(ctx.config, before.id, input.routingKey)
        : before.routingKey;
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id: before.id },
      data: {
        url: input.url,
        description: input.description,
        eventTypes: input.eventTypes,
        providers: input.providers,
        format,
        routingKey,
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
      format: e.format,
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
