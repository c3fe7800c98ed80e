import { recordAudit } from "../audit/record-audit";
import type { Ctx, Role } from "../context";
import { conflict, DomainError, forbidden, notFound } from "../errors";
import { newId } from "../ids";
import { invitationState } from "./get-invitation";
import { hashInvitationToken } from "./invitation-token";
import { lockMemberships } from "./member-lock";
import { invitationTokenInput } from "./member-schemas";

export interface AcceptInvitationResult {
  organizationId: string;
  memberId: string;
  role: Role;
}

const gone = (message: string) => new DomainError("CONFLICT", message);

/**
 * Accepts an invitation for the signed-in user: the link must be pending and unexpired, and the
 * user's email must be the invited one (a forwarded link is useless to anyone else). Creates the
 * membership and marks the invitation used in one transaction with its audit row; a link works once.
 */
export async function acceptInvitation(
  ctx: Ctx,
  raw: { token: string },
  now = new Date(),
): Promise<AcceptInvitationResult> {
  if (ctx.actor.type !== "user") throw forbidden("Sign in to accept an invitation");
  const userId = ctx.actor.userId;
  const parsed = invitationTokenInput.safeParse(raw);
  if (!parsed.success) throw notFound("Invitation");
  const tokenHash = hashInvitationToken(parsed.data.token);
  return ctx.db.$transaction(async (tx) => {
    const found = await tx.invitation.findUnique({ where: { tokenHash }, select: { organizationId: true } });
    if (!found) throw notFound("Invitation");
    await lockMemberships(tx, found.organizationId);
    // Re-read under the lock: a revoke or another accept that committed meanwhile is seen here.
    const inv = await tx.invitation.findUniqueOrThrow({ where: { tokenHash } });
    const state = invitationState(inv, now);
    if (state === "expired") throw gone("This invitation has expired; ask for a new one");
    if (state === "revoked") throw gone("This invitation was revoked");
    if (state === "accepted") throw gone("This invitation has already been used");
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    if (user.email.toLowerCase() !== inv.email.toLowerCase()) {
      throw forbidden(`This invitation is for ${inv.email}; you are signed in as ${user.email}`);
    }
    const already = await tx.member.findUnique({
      where: { organizationId_userId: { organizationId: inv.organizationId, userId } },
    });
    if (already) throw conflict("You are already a member of this organization");
    const role = (inv.role ?? "member") as Role;
    const member = await tx.member.create({
      data: { id: newId("mem"), organizationId: inv.organizationId, userId, role, createdAt: now },
    });
    await tx.invitation.update({ where: { id: inv.id }, data: { status: "accepted" } });
    await recordAudit(tx, ctx.actor, {
      organizationId: inv.organizationId,
      action: "invitation.accept",
      targetType: "invitation",
      targetId: inv.id,
      before: { email: inv.email, role, status: "pending" },
      after: { email: inv.email, role, status: "accepted", memberId: member.id },
    });
    return { organizationId: inv.organizationId, memberId: member.id, role };
  });
}
