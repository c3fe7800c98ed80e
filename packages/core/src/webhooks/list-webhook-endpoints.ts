import { z } from "zod";
import type { Ctx } from "../context";
import { openEndpointSecret } from "./endpoint-secrets";
import { usesSvix } from "./svix-delivery";
import { svixGetEndpoint, svixGetSecret, svixListEndpoints } from "./svix-endpoints";
import {
  findTenantEndpoint,
  requireTenant,
  toWebhookEndpointDto,
  type WebhookEndpointDto,
  type WebhookEndpointSummary,
} from "./webhook-endpoint-dto";

export const listWebhookEndpointsInput = z.object({
  organizationId: z.string().min(1),
  projectId: z.string().min(1).optional(),
});

/** The organization's endpoints with their recent health. Viewer role. */
export async function listWebhookEndpoints(
  ctx: Ctx,
  raw: z.input<typeof listWebhookEndpointsInput>,
): Promise<WebhookEndpointSummary[]> {
  const input = listWebhookEndpointsInput.parse(raw);
  requireTenant(ctx, input.organizationId, "viewer");
  if (usesSvix(ctx.config)) return svixListEndpoints(ctx, input.organizationId, input.projectId);
  const rows = await ctx.db.webhookEndpoint.findMany({
    where: {
      organizationId: input.organizationId,
      ...(input.projectId ? { OR: [{ projectId: null }, { projectId: input.projectId }] } : {}),
    },
    orderBy: { createdAt: "asc" },
  });
  const since = new Date(Date.now() - 24 * 3600 * 1000);
  return Promise.all(
    rows.map(async (e) => {
      const [last, groups] = await Promise.all([
        ctx.db.webhookAttempt.findFirst({
          where: { delivery: { endpointId: e.id } },
          orderBy: { startedAt: "desc" },
          select: { startedAt: true, success: true, responseStatus: true },
        }),
        ctx.db.webhookDelivery.groupBy({
          by: ["status"],
          where: { endpointId: e.id, createdAt: { gte: since } },
          _count: { _all: true },
        }),
      ]);
      const n = (s: string[]) =>
        groups.filter((g) => s.includes(g.status)).reduce((sum, g) => sum + g._count._all, 0);
      return {
        ...toWebhookEndpointDto(e, ctx.config),
        lastAttempt: last
          ? { at: last.startedAt.toISOString(), success: last.success, responseStatus: last.responseStatus }
          : null,
        last24h: { succeeded: n(["succeeded"]), failed: n(["failed", "exhausted"]), pending: n(["pending"]) },
      };
    }),
  );
}

export const webhookEndpointRefInput = z.object({
  organizationId: z.string().min(1),
  endpointId: z.string().min(1),
});

/** One endpoint of the organization. Viewer role. */
export async function getWebhookEndpoint(
  ctx: Ctx,
  raw: z.input<typeof webhookEndpointRefInput>,
): Promise<WebhookEndpointDto> {
  const input = webhookEndpointRefInput.parse(raw);
  requireTenant(ctx, input.organizationId, "viewer");
  if (usesSvix(ctx.config)) return svixGetEndpoint(ctx, input.organizationId, input.endpointId);
  return toWebhookEndpointDto(
    await findTenantEndpoint(ctx, input.organizationId, input.endpointId),
    ctx.config,
  );
}

/** The endpoint's signing secret, for the "reveal secret" button. Admin role. */
export async function getWebhookEndpointSecret(
  ctx: Ctx,
  raw: z.input<typeof webhookEndpointRefInput>,
): Promise<{ secret: string }> {
  const input = webhookEndpointRefInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (usesSvix(ctx.config)) return svixGetSecret(ctx, input.organizationId, input.endpointId);
  const e = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  return { secret: openEndpointSecret(ctx.config, e.id, e.secret) };
}
