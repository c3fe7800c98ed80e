import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { SECRET_ROTATION_GRACE_MS } from "./builtin-delivery";
import { openEndpointSecret, sealEndpointSecret } from "./endpoint-secrets";
import { generateWebhookSecret } from "./signing";
import { usesSvix } from "./svix-delivery";
import { svixRotateSecret } from "./svix-endpoints";
import { findTenantEndpoint, requireTenant } from "./webhook-endpoint-dto";

export const rotateWebhookSecretInput = z.object({
  organizationId: z.string().min(1),
  endpointId: z.string().min(1),
});

/**
 * Replaces an endpoint's secret. Requests stay signed with the old one too for 24 hours, so a
 * receiver can switch without dropping a message. Admin role; the audit row never holds secrets.
 */
export async function rotateWebhookSecret(
  ctx: Ctx,
  raw: z.input<typeof rotateWebhookSecretInput>,
): Promise<{ secret: string; previousValidUntil: string }> {
  const input = rotateWebhookSecretInput.parse(raw);
  requireTenant(ctx, input.organizationId, "admin");
  if (usesSvix(ctx.config)) return svixRotateSecret(ctx, input.organizationId, input.endpointId);
  const e = await findTenantEndpoint(ctx, input.organizationId, input.endpointId);
  const secret = generateWebhookSecret();
  const until = new Date(Date.now() + SECRET_ROTATION_GRACE_MS);
  await ctx.db.$transaction(async (tx) => {
    await tx.webhookEndpoint.update({
      where: { id: e.id },
      // Both re-sealed under the current key (the old one may predate it, or encryption).
      data: {
        secret: sealEndpointSecret(ctx.config, e.id, secret),
        previousSecret: sealEndpointSecret(ctx.config, e.id, openEndpointSecret(ctx.config, e.id, e.secret)),
        previousSecretExpiresAt: until,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_endpoint.rotate_secret",
      targetType: "webhook_endpoint",
      targetId: e.id,
      after: { previousValidUntil: until.toISOString() },
    });
  });
  return { secret, previousValidUntil: until.toISOString() };
}
