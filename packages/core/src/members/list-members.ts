import { type Ctx, type Role, roleAtLeast } from "../context";
import { tenantOf } from "./member-lock";

export interface MemberDto {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
}

export interface InvitationDto {
  id: string;
  email: string;
  role: Role;
  inviterName: string | null;
  createdAt: string;
  expiresAt: string;
  /** Pending but past its expiry: the link no longer works. */
  expired: boolean;
}

export interface MembersDto {
  members: MemberDto[];
  /** Pending invitations; only admins and owners see them (empty otherwise). */
  invitations: InvitationDto[];
}

/**
 * The organization's members with their role (owners first), and — for admins and owners — its
 * pending invitations, newest first.
 */
export async function listMembers(ctx: Ctx, now = new Date()): Promise<MembersDto> {
  const organizationId = tenantOf(ctx);
  const rows = await ctx.db.member.findMany({
    where: { organizationId },
    include: { user: { select: { name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  const rank = (r: string) => ["owner", "admin", "member", "viewer"].indexOf(r);
  const members = rows
    .map((m) => ({
      id: m.id,
      userId: m.userId,
      name: m.user.name,
      email: m.user.email,
      role: m.role as Role,
      joinedAt: m.createdAt.toISOString(),
    }))
    .sort((a, b) => rank(a.role) - rank(b.role));
  const seesInvitations =
    ctx.actor.type === "system" ||
    (ctx.actor.type === "user" && ctx.actor.isOperator) ||
    roleAtLeast(ctx.role, "admin");
  const invitations = seesInvitations
    ? await ctx.db.invitation.findMany({
        where: { organizationId, status: "pending" },
        include: { user: { select: { name: true } } },
        orderBy: { createdAt: "desc" },
      })
    : [];
  return {
    members,
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: (i.role ?? "member") as Role,
      inviterName: i.user.name,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
      expired: i.expiresAt <= now,
    })),
  };
}
