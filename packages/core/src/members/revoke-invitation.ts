import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { conflict, forbidden, notFound } from "../errors";
import { currentRole, lockMemberships, tenantOf } from "./member-lock";
import { invitationRefInput } from "./member-schemas";

/**
 * Revokes a pending invitation of the caller's organization (admins and owners; an invitation to
 * become owner only by an owner): its link stops working at once. One transaction with its audit row.
 */
export async function revokeInvitation(ctx: Ctx, raw: { invitationId: string }): Promise<{ id: string }> {
  const { invitationId } = invitationRefInput.parse(raw);
  const organizationId = tenantOf(ctx);
  requireRole(ctx, "admin");
  await ctx.db.$transaction(async (tx) => {
    await lockMemberships(tx, organizationId);
    const role = await currentRole(tx, ctx, organizationId, "admin");
    const inv = await tx.invitation.findUnique({ where: { id: invitationId } });
    if (!inv || inv.organizationId !== organizationId) throw notFound("Invitation");
    if (inv.status !== "pending") throw conflict("This invitation is no longer pending");
    if (inv.role === "owner" && role !== "owner")
      throw forbidden("Only an owner can revoke an owner invitation");
    await tx.invitation.update({ where: { id: inv.id }, data: { status: "canceled" } });
    await recordAudit(tx, ctx.actor, {
      organizationId,
      action: "invitation.revoke",
      targetType: "invitation",
      targetId: inv.id,
      before: { email: inv.email, role: inv.role, status: "pending" },
      after: { email: inv.email, role: inv.role, status: "revoked" },
    });
  });
  return { id: invitationId };
}
