import type { Config } from "@breakwater/config";
import type { WebhookEndpoint } from "@breakwater/db";
import { z } from "zod";
import { type Ctx, type Role, requireRole } from "../context";
import { notFound } from "../errors";
import { WEBHOOK_EVENT_TYPES } from "../events/breaker-events";
import { isDeliverableUrl } from "./builtin-delivery";
import { openEndpointSecret } from "./endpoint-secrets";

/** An endpoint as the dashboard sees it; the secret is never part of it (see getWebhookEndpointSecret). */
export interface WebhookEndpointDto {
  id: string;
  organizationId: string;
  projectId: string | null;
  url: string;
  description: string;
  eventTypes: string[];
  providers: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** The first characters of the secret, to tell secrets apart after a rotation. */
  secretPrefix: string;
  createdAt: string;
  updatedAt: string;
}

/** The DTO of a stored endpoint; `config` opens the sealed secret for its prefix. */
export function toWebhookEndpointDto(e: WebhookEndpoint, config: Config): WebhookEndpointDto {
  return {
    id: e.id,
    organizationId: e.organizationId,
    projectId: e.projectId,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    providers: e.providers,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: e.failingSince?.toISOString() ?? null,
    secretPrefix: `${openEndpointSecret(config, e.id, e.secret).slice(0, 10)}…`,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** Endpoint fields shared by create and update. */
export const endpointUrl = z
  .string()
  .trim()
  .max(2048, "URL is too long")
  .refine(isDeliverableUrl, { message: "Only http:// and https:// URLs can receive webhooks" });
export const endpointEventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((a) => [...new Set(a)]);
export const endpointProviders = z
  .array(z.string().regex(/^[a-z0-9_]{1,64}$/, "Provider names are lowercase, like openai or azure_openai"))
  .max(32)
  .transform((a) => [...new Set(a)]);

/** Checks the caller may act on this organization with at least `min`; another tenant is NOT_FOUND. */
export function requireTenant(ctx: Ctx, organizationId: string, min: Role): void {
  if (ctx.organizationId && ctx.organizationId !== organizationId) throw notFound("Organization");
  requireRole(ctx, min);
}

/** The endpoint if it belongs to the organization; NOT_FOUND otherwise (never reveals other tenants'). */
export async function findTenantEndpoint(ctx: Ctx, organizationId: string, endpointId: string) {
  const e = await ctx.db.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!e || e.organizationId !== organizationId) throw notFound("Webhook endpoint");
  return e;
}
