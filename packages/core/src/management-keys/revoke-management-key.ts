import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, isOperatorActor, requireRole } from "../context";
import { forbidden, notFound } from "../errors";
import { type ManagementKeyDto, toManagementKeyDto } from "./management-key-dto";

export const revokeManagementKeyInput = z.object({ keyId: z.string().min(1).max(100) });
export type RevokeManagementKeyInput = z.input<typeof revokeManagementKeyInput>;

/**
 * Revokes a management key at once (its next request gets 401); revoking a revoked key keeps its
 * first revocation time. Organization keys need the admin role in their organization (another
 * tenant's key is NOT_FOUND); operator keys need the operator.
 */
export async function revokeManagementKey(
  ctx: Ctx,
  raw: RevokeManagementKeyInput,
): Promise<ManagementKeyDto> {
  const input = revokeManagementKeyInput.parse(raw);
  if (ctx.actor.type === "management_key")
    throw forbidden("Management keys are revoked in the dashboard or with bw");
  const key = await ctx.db.managementKey.findUnique({ where: { id: input.keyId } });
  if (!key) throw notFound("Management key");
  if (key.organizationId === null) {
    if (!isOperatorActor(ctx.actor)) throw notFound("Management key");
  } else {
    if (ctx.organizationId && key.organizationId !== ctx.organizationId) throw notFound("Management key");
    if (!ctx.organizationId && !isOperatorActor(ctx.actor)) throw notFound("Management key");
    requireRole(ctx, "admin");
  }
  if (key.revokedAt) return toManagementKeyDto(key);
  const row = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.managementKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, ctx.actor, {
      organizationId: key.organizationId,
      action: "management_key.revoke",
      targetType: "management_key",
      targetId: key.id,
      before: { revokedAt: null },
      after: { name: key.name, revokedAt: updated.revokedAt?.toISOString() },
    });
    return updated;
  });
  return toManagementKeyDto(row);
}
