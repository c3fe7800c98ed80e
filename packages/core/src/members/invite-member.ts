import type { Tx } from "@breakwater/db";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { conflict, DomainError, forbidden } from "../errors";
import { newId } from "../ids";
import { hashInvitationToken, newInvitationToken } from "./invitation-token";
import type { InvitationDto } from "./list-members";
import { currentRole, lockMemberships, tenantOf } from "./member-lock";
import { INVITATION_TTL_DAYS, type InviteMemberInput, inviteMemberInput } from "./member-schemas";

export interface InviteMemberResult {
  invitation: InvitationDto;
  /** The accept link's token: returned once, stored only as a hash. */
  token: string;
}

/**
 * Who an invitation names as its sender: the signed-in user, or for a management key the person
 * who created the key, who must still be a member (read under the membership lock). A key nobody
 * created (minted by the CLI) or whose creator left cannot send one: CONFLICT, with what to do.
 */
async function inviterOf(tx: Tx, ctx: Ctx, organizationId: string): Promise<string> {
  if (ctx.actor.type === "user") return ctx.actor.userId;
  if (ctx.actor.type !== "management_key") throw forbidden();
  const key = await tx.managementKey.findUnique({
    where: { id: ctx.actor.keyId },
    select: { createdById: true },
  });
  const member = key?.createdById
    ? await tx.member.findUnique({
        where: { organizationId_userId: { organizationId, userId: key.createdById } },
        select: { id: true },
      })
    : null;
  if (!key?.createdById || !member) {
    throw conflict(
      "An invitation names the person who sent it, and this key's creator is not a member of the organization: invite from the dashboard, or use a write key created by a current member",
    );
  }
  return key.createdById;
}

const refused = (message: string) =>
  new DomainError("CONFLICT", message, { fieldErrors: { email: message } });

/**
 * Invites an email address into the caller's organization with a role (admins and owners, and
 * write keys on behalf of their creator; only owners may invite owners). Refuses an address that
 * is already a member or already has a pending, unexpired invitation. One transaction with its
 * audit row; the token is returned once.
 */
export async function inviteMember(
  ctx: Ctx,
  raw: InviteMemberInput,
  now = new Date(),
): Promise<InviteMemberResult> {
  const input = inviteMemberInput.parse(raw);
  const organizationId = tenantOf(ctx);
  requireRole(ctx, "admin");
  const token = newInvitationToken();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 3600 * 1000);
  if (ctx.actor.type !== "user" && ctx.actor.type !== "management_key") {
    throw forbidden("Invitations are sent by a signed-in user or a write key");
  }

  const row = await ctx.db.$transaction(async (tx) => {
    await lockMemberships(tx, organizationId);
    const role = await currentRole(tx, ctx, organizationId, "admin");
    const inviterId = await inviterOf(tx, ctx, organizationId);
    if (input.role === "owner" && role !== "owner") throw forbidden("Only an owner can invite another owner");
    const existing = await tx.member.findFirst({
      where: { organizationId, user: { email: { equals: input.email, mode: "insensitive" } } },
      select: { id: true },
    });
    if (existing) throw refused(`${input.email} is already a member of this organization`);
    const pending = await tx.invitation.findFirst({
      where: {
        organizationId,
        email: { equals: input.email, mode: "insensitive" },
        status: "pending",
        expiresAt: { gt: now },
      },
      select: { id: true },
    });
    if (pending)
      throw refused(`${input.email} already has a pending invitation; revoke it to send a new one`);
    const created = await tx.invitation.create({
      data: {
        id: newId("inv"),
        organizationId,
        email: input.email,
        role: input.role,
        status: "pending",
        expiresAt,
        inviterId,
        tokenHash: hashInvitationToken(token),
        createdAt: now,
      },
      include: { user: { select: { name: true } } },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId,
      action: "invitation.create",
      targetType: "invitation",
      targetId: created.id,
      after: {
        email: input.email,
        role: input.role,
        status: "pending",
        expiresAt: expiresAt.toISOString(),
        // Sent with a key: who the invitation names, and the key's name as it was when it sent it.
        ...(ctx.actor.type === "management_key" ? { inviterId, managementKeyName: ctx.actor.name } : {}),
      },
    });
    return created;
  });
  return {
    token,
    invitation: {
      id: row.id,
      email: row.email,
      role: input.role,
      inviterName: row.user.name,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      expired: false,
    },
  };
}
