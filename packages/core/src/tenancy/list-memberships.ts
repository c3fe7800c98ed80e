import type { Ctx, Role } from "../context";
import { DomainError } from "../errors";

export interface MembershipDto {
  organizationId: string;
  name: string;
  slug: string;
  role: Role;
  planSlug: string | null;
  createdAt: string;
}

/** The organizations the calling user belongs to, with their role, oldest first. */
export async function listMemberships(ctx: Ctx): Promise<MembershipDto[]> {
  if (ctx.actor.type !== "user") throw new DomainError("UNAUTHORIZED", "Sign in to see your organizations");
  const rows = await ctx.db.member.findMany({
    where: { userId: ctx.actor.userId },
    include: { organization: { include: { subscription: { include: { plan: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({
    organizationId: m.organizationId,
    name: m.organization.name,
    slug: m.organization.slug,
    role: m.role as Role,
    planSlug: m.organization.subscription?.plan.slug ?? null,
    createdAt: m.createdAt.toISOString(),
  }));
}
