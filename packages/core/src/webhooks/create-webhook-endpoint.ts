import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { invalid, limitExceeded, notFound } from "../errors";
import { newId } from "../ids";
import { sealEndpointSecret } from "./endpoint-secrets";
import { generateWebhookSecret } from "./signing";
import { usesSvix } from "./svix-delivery";
import { svixCreateEndpoint } from "./svix-endpoints";
import {
  checkEndpointFormat,
  endpointEventTypes,
  endpointFormat,
  endpointProviders,
  endpointRoutingKey,
  endpointUrl,
  requireTenant,
  toWebhookEndpointDto,
  type WebhookEndpointDto,
} from "./webhook-endpoint-dto";

export const createWebhookEndpointInput = z.object({
  organizationId: z.string().min(1),
  /** Limit the endpoint to one project; omitted = every project of the organization. */
  projectId: z.string().min(1).optional(),
  url: endpointUrl,
  description: z.string().trim().max(200).default(""),
  /** Empty = every event type. */
  eventTypes: endpointEventTypes.default([]),
  /** Empty = every provider. */
  providers: endpointProviders.default([]),
  /** standard (Standard Webhooks JSON), slack or pagerduty. */
  format: endpointFormat.default("standard"),
  /** PagerDuty only: the integration's routing key. */
  routingKey: endpointRoutingKey.optional(),
});
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointInput>;

/**
 * Adds a webhook endpoint with a fresh whsec_ secret (returned here, readable later by admins): in
 * Postgres for the built-in sender, or in the project's Svix application when Svix delivers (a
 * project is then required). Admin role; refuses non-http(s) URLs and more endpoints than
 * max_webhook_endpoints.
 */
export async function createWebhookEndpoint(
  ctx: Ctx,
  raw: CreateWebhookEndpointInput,
): Promise<{ endpoint: WebhookEndpointDto; secret: string }> {
  const input = createWebhookEndpointInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  checkEndpointFormat({ ...input, hasRoutingKey: Boolean(input.routingKey) });
  if (usesSvix(ctx.config)) {
    if (input.format !== "standard") throw svixFormatRefused();
    return svixCreateEndpoint(ctx, input);
  }
  if (input.projectId) {
    const p = await ctx.db.project.findUnique({
      where: { id: input.projectId },
      select: { organizationId: true },
    });
    if (!p || p.organizationId !== input.organizationId) throw notFound("Project");
  }
  const ent = await resolveEntitlements(ctx.db, input.organizationId);
  const secret = generateWebhookSecret();
  const id = newId("whe");
  const row = await ctx.db.$transaction(async (tx) => {
    // Serialise creates per organization so two concurrent ones cannot both pass the limit.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${input.organizationId}`}))`;
    const max = ent.values.max_webhook_endpoints;
    const count = await tx.webhookEndpoint.count({ where: { organizationId: input.organizationId } });
    if (max !== null && count >= max) {
      throw limitExceeded(
        max === 0
          ? "Your plan does not include webhook endpoints; upgrade to add one"
          : `Your plan allows ${max} webhook endpoint${max === 1 ? "" : "s"}`,
      );
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        organizationId: input.organizationId,
        projectId: input.projectId ?? null,
        url: input.url,
        description: input.description,
        secret: sealEndpointSecret(ctx.config, id, secret),
        eventTypes: input.eventTypes,
        providers: input.providers,
        format: input.format,
        routingKey:
          input.format === "pagerduty" && input.routingKey
            ? sealEndpointSecret(ctx.config, id, input.routingKey)
            : null,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_endpoint.create",
      targetType: "webhook_endpoint",
      targetId: created.id,
      after: {
        url: input.url,
        projectId: input.projectId ?? null,
        eventTypes: input.eventTypes,
        providers: input.providers,
        format: input.format,
      },
    });
    return created;
  });
  return { endpoint: toWebhookEndpointDto(row, ctx.config), secret };
}

/** Slack and PagerDuty bodies are built by the built-in sender; Svix sends its own Standard Webhooks JSON. */
export function svixFormatRefused() {
  const message =
    "Slack and PagerDuty formats are sent by the built-in sender; with Svix, use Svix's own integrations";
  return invalid(message, { fieldErrors: { format: message } });
}
