import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { OrganizationDto } from "./create-organization";
import { organizationRef } from "./tenancy-rows";

export const getOrganizationInput = z.object({
  /** An organization id (`org_…`) or its slug. */
  ref: z.string().trim().min(1, "An organization id or slug is required"),
});
export type GetOrganizationInput = z.input<typeof getOrganizationInput>;

/**
 * One organization by id or slug. Outside the caller's tenant it is NOT_FOUND (never FORBIDDEN), so
 * the answer does not reveal that another tenant's organization exists.
 */
export async function getOrganization(ctx: Ctx, raw: GetOrganizationInput): Promise<OrganizationDto> {
  const { ref } = getOrganizationInput.parse(raw);
  const org = await ctx.db.organization.findUnique({
    where: organizationRef(ref),
    include: { subscription: { include: { plan: true } } },
  });
  if (!org || (ctx.organizationId && ctx.organizationId !== org.id)) throw notFound("Organization");
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    planSlug: org.subscription?.plan.slug ?? "",
    createdAt: org.createdAt.toISOString(),
  };
}
