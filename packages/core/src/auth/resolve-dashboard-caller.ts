import type { Deps, Role } from "../context";
import { ROLES } from "../context";

export interface DashboardCaller {
  user: { id: string; name: string; email: string; isOperator: boolean };
  /** The organization the dashboard acts in, or null when the user belongs to none yet. */
  organization: { id: string; name: string; slug: string } | null;
  role: Role | null;
}

function asRole(value: string): Role {
  // better-auth stores several roles comma-separated; the strongest one decides.
  const roles = value.split(",").map((r) => r.trim()) as Role[];
  let best: Role = "viewer";
  for (const r of roles) if (ROLES.includes(r) && ROLES.indexOf(r) > ROLES.indexOf(best)) best = r;
  return best;
}

/**
 * Resolves a signed-in user's dashboard tenant: the session's active organization when the user
 * is (still) a member of it, else their oldest membership, else none. Returns null for an unknown user.
 */
export async function resolveDashboardCaller(
  deps: Pick<Deps, "db">,
  input: { userId: string; activeOrganizationId?: string | null },
): Promise<DashboardCaller | null> {
  const user = await deps.db.user.findUnique({
    where: { id: input.userId },
    select: { id: true, name: true, email: true, isOperator: true },
  });
  if (!user) return null;
  const include = { organization: { select: { id: true, name: true, slug: true } } } as const;
  const member =
    (input.activeOrganizationId
      ? await deps.db.member.findUnique({
          where: { organizationId_userId: { organizationId: input.activeOrganizationId, userId: user.id } },
          include,
        })
      : null) ??
    (await deps.db.member.findFirst({ where: { userId: user.id }, orderBy: { createdAt: "asc" }, include }));
  return {
    user,
    organization: member ? member.organization : null,
    role: member ? asRole(member.role) : null,
  };
}
