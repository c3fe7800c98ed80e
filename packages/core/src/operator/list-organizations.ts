import type { Ctx } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { requireOperator } from "./operator-input";

export interface OperatorOrganizationDto {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
  plan: { slug: string; name: string; version: number; pinnedVersion: number | null } | null;
  projects: { id: string; name: string }[];
  memberCount: number;
  /** SDK calls recorded since the start of this UTC month. */
  requestsThisMonth: number;
  /** The organization's effective included_requests_month (plan or organization override). */
  includedRequestsMonth: number | null;
  overrideCount: number;
}

/** Start of the current UTC month. */
export function monthStartUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Every organization with plan, projects, members and this month's requests against its quota; operators only. */
export async function listOrganizationsForOperator(
  ctx: Ctx,
  now = new Date(),
): Promise<OperatorOrganizationDto[]> {
  requireOperator(ctx);
  const orgs = await ctx.db.organization.findMany({
    orderBy: { createdAt: "asc" },
    include: {
      projects: {
        where: { archivedAt: null },
        select: { id: true, name: true },
        orderBy: { createdAt: "asc" },
      },
      subscription: {
        include: {
          plan: {
            include: { versions: { orderBy: { version: "desc" }, take: 1, select: { version: true } } },
          },
          pinnedPlanVersion: { select: { version: true } },
        },
      },
      _count: { select: { members: true, entitlementOverrides: true } },
    },
  });
  const since = monthStartUtc(now);
  const usage = await ctx.db.$queryRaw<{ organization_id: string; calls: bigint }[]>`
    SELECT p.organization_id, COALESCE(SUM(r.calls), 0)::bigint AS calls
    FROM usage_rollups r JOIN projects p ON p.id = r.project_id
    WHERE r.hour >= ${since}
    GROUP BY p.organization_id`;
  const calls = new Map(usage.map((u) => [u.organization_id, Number(u.calls)]));
  const out: OperatorOrganizationDto[] = [];
  for (const o of orgs) {
    const resolved = await resolveEntitlements(ctx.db, o.id, undefined, now);
    const sub = o.subscription;
    out.push({
      id: o.id,
      name: o.name,
      slug: o.slug,
      createdAt: o.createdAt.toISOString(),
      plan: sub
        ? {
            slug: sub.plan.slug,
            name: sub.plan.name,
            version: sub.pinnedPlanVersion?.version ?? sub.plan.versions[0]?.version ?? 0,
            pinnedVersion: sub.pinnedPlanVersion?.version ?? null,
          }
        : null,
      projects: o.projects,
      memberCount: o._count.members,
      requestsThisMonth: calls.get(o.id) ?? 0,
      includedRequestsMonth: resolved.values.included_requests_month,
      overrideCount: o._count.entitlementOverrides,
    });
  }
  return out;
}
