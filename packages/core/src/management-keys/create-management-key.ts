import { z } from "zod";
import { displayPrefix, hashApiKey } from "../api-keys/api-key-format";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, isOperatorActor, requireRole } from "../context";
import { forbidden, invalid } from "../errors";
import { newId } from "../ids";
import { type ManagementKeyDto, toManagementKeyDto } from "./management-key-dto";
import { mintManagementKey } from "./management-key-format";

export const createManagementKeyInput = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name is at most 100 characters"),
  scope: z.enum(["read", "write", "operator"], { error: "Scope is read, write or operator" }),
  /** When the key stops working; absent = never. Must be in the future. */
  expiresAt: z.coerce.date({ error: "Expiry must be a date" }).optional(),
});
export type CreateManagementKeyInput = z.input<typeof createManagementKeyInput>;

/**
 * Mints a management key; the plaintext is returned once and only its SHA-256 is stored. `read`
 * and `write` keys belong to the caller's organization and need its admin role (owners and admins,
 * as in the dashboard); `operator` keys belong to the installation and need its operator. A
 * management key cannot mint keys (no key outlives the person who could have made it by proxy).
 */
export async function createManagementKey(
  ctx: Ctx,
  raw: CreateManagementKeyInput,
  now = new Date(),
): Promise<{ managementKey: string; key: ManagementKeyDto }> {
  const input = createManagementKeyInput.parse(raw);
  if (ctx.actor.type === "management_key")
    throw forbidden("Management keys are created in the dashboard or with bw");
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw invalid("Expiry must be in the future", {
      fieldErrors: { expiresAt: "Expiry must be in the future" },
    });
  }
  let organizationId: string | null = null;
  if (input.scope === "operator") {
    if (!isOperatorActor(ctx.actor))
      throw forbidden("Only an operator of this installation can create operator keys");
  } else {
    if (!ctx.organizationId) throw invalid("Choose an organization first");
    requireRole(ctx, "admin");
    organizationId = ctx.organizationId;
  }
  const managementKey = mintManagementKey();
  const id = newId("mk");
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.managementKey.create({
      data: {
        id,
        organizationId,
        name: input.name,
        scope: input.scope,
        hash: hashApiKey(managementKey),
        prefix: displayPrefix(managementKey),
        expiresAt: input.expiresAt ?? null,
        createdById: ctx.actor.type === "user" ? ctx.actor.userId : null,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId,
      action: "management_key.create",
      targetType: "management_key",
      targetId: id,
      after: {
        name: input.name,
        scope: input.scope,
        prefix: created.prefix,
        expiresAt: input.expiresAt?.toISOString() ?? null,
      },
    });
    return created;
  });
  return { managementKey, key: toManagementKeyDto(row) };
}
