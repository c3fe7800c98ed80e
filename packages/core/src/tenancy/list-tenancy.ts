import type { ApiKeyDto } from "../api-keys/create-api-key";
import { type Ctx, isOperatorActor } from "../context";
import { notFound } from "../errors";
import type { ProjectDto } from "./create-project";
import {
  type OrganizationListDto,
  organizationListDtoFrom,
  projectDtoFrom,
  toApiKeyDto,
} from "./tenancy-rows";

/** Organizations visible to the caller: all for system/operators, memberships otherwise. */
export async function listOrganizations(ctx: Ctx): Promise<OrganizationListDto[]> {
  const seeAll = isOperatorActor(ctx.actor);
  const rows = await ctx.db.organization.findMany({
    where: seeAll ? {} : { members: { some: { userId: ctx.actor.type === "user" ? ctx.actor.userId : "" } } },
    include: { subscription: { include: { plan: true } }, _count: { select: { projects: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((o) =>
    organizationListDtoFrom({
      id: o.id,
      name: o.name,
      slug: o.slug,
      planSlug: o.subscription?.plan.slug ?? null,
      projectCount: o._count.projects,
      createdAt: o.createdAt,
    }),
  );
}

/** Projects of one organization (the caller's tenant when the context has one). */
export async function listProjects(ctx: Ctx, organizationId: string): Promise<ProjectDto[]> {
  if (ctx.organizationId && ctx.organizationId !== organizationId) throw notFound("Organization");
  const rows = await ctx.db.project.findMany({
    where: { organizationId, archivedAt: null },
    include: { budgetLimits: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(projectDtoFrom);
}

/** One project of the caller's tenant; another tenant's project is NOT_FOUND, never FORBIDDEN. */
export async function getProject(ctx: Ctx, projectId: string): Promise<ProjectDto> {
  const p = await ctx.db.project.findUnique({ where: { id: projectId }, include: { budgetLimits: true } });
  if (!p || p.archivedAt || (ctx.organizationId && p.organizationId !== ctx.organizationId)) {
    throw notFound("Project");
  }
  return projectDtoFrom(p);
}

/** API keys of a project (never the plaintext). */
export async function listApiKeys(ctx: Ctx, projectId: string): Promise<ApiKeyDto[]> {
  await getProject(ctx, projectId);
  const rows = await ctx.db.apiKey.findMany({
    where: { projectId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toApiKeyDto);
}
