import { z } from "zod";
import type { Ctx } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { invalid, notFound } from "../errors";
import { EVENT_CATALOGUE, type EventTypeInfo } from "../events/breaker-events";
import { ensureSvixApp, svixClient, usesSvix, usesSvixCloud } from "./svix-delivery";
import { requireTenant } from "./webhook-endpoint-dto";

export const webhookSettingsInput = z.object({ organizationId: z.string().min(1) });

export interface WebhookSettingsDto {
  /** builtin: endpoints live in Breakwater; svix: Svix delivers (endpoints in Svix). */
  backend: "builtin" | "svix";
  /** Svix cloud has an App Portal the dashboard can link to; self-hosted svix-server has none. */
  appPortal: boolean;
  breakerWebhooks: boolean;
  maxEndpoints: number | null;
  endpointCount: number;
}

/** What the webhook pages need to know about the deployment and the plan. Viewer role. */
export async function getWebhookSettings(
  ctx: Ctx,
  raw: z.input<typeof webhookSettingsInput>,
): Promise<WebhookSettingsDto> {
  const input = webhookSettingsInput.parse(raw);
  requireTenant(ctx, input.organizationId, "viewer");
  const [ent, endpointCount] = await Promise.all([
    resolveEntitlements(ctx.db, input.organizationId),
    ctx.db.webhookEndpoint.count({ where: { organizationId: input.organizationId } }),
  ]);
  return {
    backend: usesSvix(ctx.config) ? "svix" : "builtin",
    appPortal: usesSvixCloud(ctx.config),
    breakerWebhooks: ent.values.breaker_webhooks,
    maxEndpoints: ent.values.max_webhook_endpoints,
    endpointCount,
  };
}

/** The event catalogue with a JSON schema and a sample payload per type (public information). */
export function listWebhookEventTypes(): EventTypeInfo[] {
  return EVENT_CATALOGUE;
}

export const webhookPortalInput = z.object({
  organizationId: z.string().min(1),
  projectId: z.string().min(1),
});

/** A short-lived Svix App Portal link for one project's application (Svix cloud only). Admin role. */
export async function getWebhookPortalUrl(
  ctx: Ctx,
  raw: z.input<typeof webhookPortalInput>,
): Promise<{ url: string }> {
  const input = webhookPortalInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (!usesSvixCloud(ctx.config))
    throw invalid("The App Portal exists only when webhooks are delivered by Svix cloud");
  const project = await ctx.db.project.findUnique({ where: { id: input.projectId } });
  if (!project || project.organizationId !== input.organizationId) throw notFound("Project");
  await ensureSvixApp(ctx.config, project.id, project.name);
  const access = await svixClient(ctx.config).authentication.appPortalAccess(project.id, {});
  return { url: access.url };
}
