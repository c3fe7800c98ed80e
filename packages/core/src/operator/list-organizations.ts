import { z } from "zod";
import type { Ctx } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { parseInput, requireOperator } from "./operator-input";

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

export const listOrganizationsForOperatorInput = z.object({
  /** Case-insensitive substring of the name or slug. */
  search: z.string().trim().max(200).default(""),
  /** Keyset cursor: the last organization id of the previous page. */
  cursor: z.string().nullish(),
  limit: z.number().int().min(1).max(100).default(25),
});

export interface OperatorOrganizationPage {
  items: OperatorOrganizationDto[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Organizations with plan, projects, members and this month's requests against its quota, newest
 * first, searched by name or slug and keyset-paged on (created_at, id) so a page costs the same
 * however many organizations exist; operators only.
 */
export async function listOrganizationsForOperator(
  ctx: Ctx,
  raw: unknown = {},
  now = new Date(),
): Promise<OperatorOrganizationPage> {
  requireOperator(ctx);
  const input = parseInput(listOrganizationsForOperatorInput, raw ?? {});
  const after = input.cursor
    ? await ctx.db.organization.findUnique({
        where: { id: input.cursor },
        select: { id: true, createdAt: true },
      })
    : null;
  const search = input.search
    ? {
        OR: [
          { name: { contains: input.search, mode: "insensitive" as const } },
          { slug: { contains: input.search, mode: "insensitive" as const } },
        ],
      }
    : {};
  const keyset = after
    ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
    : {};
  const found = await ctx.db.organization.findMany({
    where: { AND: [search, keyset] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
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
  const orgs = found.slice(0, input.limit);
  const since = monthStartUtc(now);
  const usage =
    orgs.length === 0
      ? []
      : await ctx.db.$queryRaw<{ organization_id: string; calls: bigint }[]>`
    SELECT p.organization_id, COALESCE(SUM(r.calls), 0)::bigint AS calls
    FROM usage_rollups r JOIN projects p ON p.id = r.project_id
    WHERE r.hour >= ${since} AND p.organization_id = ANY(${orgs.map((o) => o.id)})
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
  return { items: out, nextCursor: found.length > input.limit ? (orgs[orgs.length - 1]?.id ?? null) : null };
}
