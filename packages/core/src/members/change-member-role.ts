import type { Tx } from "@breakwater/db";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, type Role, requireRole } from "../context";
import { DomainError, forbidden, notFound } from "../errors";
import type { MemberDto } from "./list-members";
import { currentRole, LAST_OWNER_MESSAGE, lockMemberships, tenantOf } from "./member-lock";
import { type ChangeMemberRoleInput, changeMemberRoleInput } from "./member-schemas";

/** The member row of the caller's organization, with its user, or NOT_FOUND. */
export async function memberOf(tx: Tx, organizationId: string, memberId: string) {
  const m = await tx.member.findUnique({
    where: { id: memberId },
    include: { user: { select: { name: true, email: true } } },
  });
  if (!m || m.organizationId !== organizationId) throw notFound("Member");
  return m;
}

/** Refuses taking `target` out of the owners when it is the last one (under lockMemberships). */
export async function keepAnOwner(tx: Tx, organizationId: string, target: { role: string }): Promise<void> {
  if (target.role !== "owner") return;
  const owners = await tx.member.count({ where: { organizationId, role: "owner" } });
  if (owners <= 1) throw new DomainError("CONFLICT", LAST_OWNER_MESSAGE);
}

/**
 * Changes a member's role (admins and owners; granting or taking away "owner" only by an owner),
 * never leaving the organization without an owner. One transaction with its audit row.
 */
export async function changeMemberRole(ctx: Ctx, raw: ChangeMemberRoleInput): Promise<MemberDto> {
  const input = changeMemberRoleInput.parse(raw);
  const organizationId = tenantOf(ctx);
  requireRole(ctx, "admin");
  return ctx.db.$transaction(async (tx) => {
    await lockMemberships(tx, organizationId);
    const role = await currentRole(tx, ctx, organizationId, "admin");
    const target = await memberOf(tx, organizationId, input.memberId);
    if ((input.role === "owner" || target.role === "owner") && role !== "owner") {
      throw forbidden("Only an owner can grant or take away the owner role");
    }
    if (target.role !== input.role) {
      if (input.role !== "owner") await keepAnOwner(tx, organizationId, target);
      await tx.member.update({ where: { id: target.id }, data: { role: input.role } });
      await recordAudit(tx, ctx.actor, {
        organizationId,
        action: "member.update_role",
        targetType: "member",
        targetId: target.id,
        before: { email: target.user.email, role: target.role },
        after: { email: target.user.email, role: input.role },
      });
    }
    return {
      id: target.id,
      userId: target.userId,
      name: target.user.name,
      email: target.user.email,
      role: input.role as Role,
      joinedAt: target.createdAt.toISOString(),
    };
  });
}
