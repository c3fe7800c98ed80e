import type { Config } from "@breakwater/config";
import type { WebhookEndpoint } from "@breakwater/db";
import { z } from "zod";
import { type Ctx, type Role, requireRole } from "../context";
import { invalid, notFound } from "../errors";
import { WEBHOOK_EVENT_TYPES } from "../events/breaker-events";
import { isDeliverableUrl } from "./builtin-delivery";
import { ENDPOINT_FORMATS, type EndpointFormat, formatReceives } from "./endpoint-formats";
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
  /** standard | slack | pagerduty */
  format: EndpointFormat;
  /** The PagerDuty routing key's last 4 characters (the key itself is never shown again). */
  routingKeyHint: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** The first characters of the secret, to tell secrets apart after a rotation. */
  secretPrefix: string;
  createdAt: string;
  updatedAt: string;
}

/** An endpoint in the endpoints listing, with its recent health (both backends list this shape). */
export interface WebhookEndpointSummary extends WebhookEndpointDto {
  lastAttempt: { at: string; success: boolean; responseStatus: number | null } | null;
  /** Deliveries in the last 24 h that succeeded / finally failed / are still retrying. */
  last24h: { succeeded: number; failed: number; pending: number };
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
    format: e.format as EndpointFormat,
    routingKeyHint: e.routingKey ? `…${openEndpointSecret(config, e.id, e.routingKey).slice(-4)}` : null,
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

export const endpointFormat = z.enum(ENDPOINT_FORMATS);
/** A PagerDuty integration key (Events API v2 "routing_key"): 32 letters and digits. */
export const endpointRoutingKey = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9]{32}$/,
    "A PagerDuty routing key is the 32-character Integration Key of an Events API v2 integration",
  );

/**
 * Checks that an endpoint's URL, filters and routing key fit its format; refuses with per-field
 * messages (nothing is written). Slack URLs are incoming webhooks (/services/…), PagerDuty URLs
 * the Events API v2 enqueue endpoint (…/v2/enqueue) and need a routing key.
 */
export function checkEndpointFormat(e: {
  format: EndpointFormat;
  url: string;
  eventTypes: string[];
  hasRoutingKey: boolean;
}): void {
  const fieldErrors: Record<string, string> = {};
  let path = "";
  try {
    path = new URL(e.url).pathname;
  } catch {
    // endpointUrl has already refused it
  }
  if (e.format === "slack" && !/^\/(services|workflows|triggers)\//.test(path)) {
    fieldErrors.url =
      "A Slack endpoint is an incoming webhook URL, like https://hooks.slack.com/services/T…/B…/…";
  }
  if (e.format === "pagerduty") {
    if (!path.endsWith("/v2/enqueue"))
      fieldErrors.url =
        "A PagerDuty endpoint is the Events API v2 URL, https://events.pagerduty.com/v2/enqueue";
    if (!e.hasRoutingKey) fieldErrors.routingKey = "A PagerDuty endpoint needs the integration's routing key";
  }
  if (e.format !== "standard") {
    const other = e.eventTypes.filter((t) => !formatReceives(e.format, t));
    if (other.length > 0)
      fieldErrors.eventTypes = `${e.format === "slack" ? "Slack" : "PagerDuty"} endpoints receive provider incident events only (not ${other.join(", ")})`;
  }
  const first = Object.values(fieldErrors)[0];
  if (first) throw invalid(first, { fieldErrors });
}

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
