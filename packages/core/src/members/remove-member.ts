import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { forbidden } from "../errors";
import { keepAnOwner, memberOf } from "./change-member-role";
import { currentRole, lockMemberships, tenantOf } from "./member-lock";
import { memberRefInput } from "./member-schemas";

/**
 * Removes a member from the caller's organization (admins and owners; an owner only by an owner),
 * never the last owner. Their sessions lose the organization at once (membership is re-read on
 * every request). One transaction with its audit row.
 */
export async function removeMember(ctx: Ctx, raw: { memberId: string }): Promise<{ id: string }> {
  const { memberId } = memberRefInput.parse(raw);
  const organizationId = tenantOf(ctx);
  requireRole(ctx, "admin");
  await ctx.db.$transaction(async (tx) => {
    await lockMemberships(tx, organizationId);
    const role = await currentRole(tx, ctx, organizationId, "admin");
    const target = await memberOf(tx, organizationId, memberId);
    if (target.role === "owner" && role !== "owner") throw forbidden("Only an owner can remove an owner");
    await keepAnOwner(tx, organizationId, target);
    await tx.member.delete({ where: { id: target.id } });
    await recordAudit(tx, ctx.actor, {
      organizationId,
      action: "member.remove",
      targetType: "member",
      targetId: target.id,
      before: { email: target.user.email, name: target.user.name, role: target.role },
    });
  });
  return { id: memberId };
}
