import { type ApiKeyDto, toApiKeyDto } from "../api-keys/create-api-key";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { ProjectDto } from "./create-project";

function limitsOf(limits: { period: string; limitUsd: { toString(): string } }[]): ProjectDto["limits"] {
  const get = (p: string) => {
    const l = limits.find((x) => x.period === p);
    return l ? Number(l.limitUsd.toString()) : null;
  };
  return { daily: get("daily"), weekly: get("weekly"), monthly: get("monthly") };
}

/** Organizations visible to the caller: all for system/operators, memberships otherwise. */
export async function listOrganizations(ctx: Ctx) {
  const seeAll = ctx.actor.type === "system" || (ctx.actor.type === "user" && ctx.actor.isOperator);
  const rows = await ctx.db.organization.findMany({
    where: seeAll ? {} : { members: { some: { userId: ctx.actor.type === "user" ? ctx.actor.userId : "" } } },
    include: { subscription: { include: { plan: true } }, _count: { select: { projects: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((o) => ({
    id: o.id,
    name: o.name,
    slug: o.slug,
    planSlug: o.subscription?.plan.slug ?? null,
    projectCount: o._count.projects,
    createdAt: o.createdAt.toISOString(),
  }));
}

/** Projects of one organization (the caller's tenant when the context has one). */
export async function listProjects(ctx: Ctx, organizationId: string): Promise<ProjectDto[]> {
  if (ctx.organizationId && ctx.organizationId !== organizationId) throw notFound("Organization");
  const rows = await ctx.db.project.findMany({
    where: { organizationId, archivedAt: null },
    include: { budgetLimits: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((p) => ({
    id: p.id,
    organizationId: p.organizationId,
    name: p.name,
    mode: p.mode,
    limits: limitsOf(p.budgetLimits),
    createdAt: p.createdAt.toISOString(),
  }));
}

/** One project of the caller's tenant; another tenant's project is NOT_FOUND, never FORBIDDEN. */
export async function getProject(ctx: Ctx, projectId: string): Promise<ProjectDto> {
  const p = await ctx.db.project.findUnique({ where: { id: projectId }, include: { budgetLimits: true } });
  if (!p || p.archivedAt || (ctx.organizationId && p.organizationId !== ctx.organizationId)) {
    throw notFound("Project");
  }
  return {
    id: p.id,
    organizationId: p.organizationId,
    name: p.name,
    mode: p.mode,
    limits: limitsOf(p.budgetLimits),
    createdAt: p.createdAt.toISOString(),
  };
}

/** API keys of a project (never the plaintext). */
export async function listApiKeys(ctx: Ctx, projectId: string): Promise<ApiKeyDto[]> {
  await getProject(ctx, projectId);
  const rows = await ctx.db.apiKey.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
  return rows.map(toApiKeyDto);
}
