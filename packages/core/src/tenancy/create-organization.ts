import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { conflict, invalid } from "../errors";
import { newId } from "../ids";

export const createOrganizationInput = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/, "Slug: 3–48 lowercase letters, digits or dashes")
    .optional(),
  planSlug: z.string().default("free"),
  /** The user who becomes owner; defaults to the calling user. */
  ownerUserId: z.string().optional(),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationInput>;

export interface OrganizationDto {
  id: string;
  name: string;
  slug: string;
  planSlug: string;
  createdAt: string;
}

export function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return base.length >= 3 ? base : `org-${base}`.replace(/-$/, "");
}

/**
 * Creates an organization with its subscription (the plan's latest version applies) and, when a
 * user creates it, that user as owner — one transaction with its audit row.
 */
export async function createOrganization(ctx: Ctx, raw: CreateOrganizationInput): Promise<OrganizationDto> {
  const input = createOrganizationInput.parse(raw);
  const ownerUserId = input.ownerUserId ?? (ctx.actor.type === "user" ? ctx.actor.userId : undefined);
  if (input.ownerUserId && ctx.actor.type === "user" && input.ownerUserId !== ctx.actor.userId) {
    requireRole({ ...ctx, role: undefined }, "owner"); // only operators/system may create for someone else
  }
  const plan = await ctx.db.plan.findUnique({ where: { slug: input.planSlug } });
  if (!plan || plan.archivedAt) throw invalid(`Unknown plan "${input.planSlug}"`);

  let slug = input.slug ?? slugify(input.name);
  if (!input.slug) {
    // Auto slugs get a short suffix on collision; an explicit slug that is taken is an error.
    for (let i = 0; i < 5 && (await ctx.db.organization.findUnique({ where: { slug } })); i++) {
      slug = `${slugify(input.name).slice(0, 40)}-${Math.random().toString(36).slice(2, 6)}`;
    }
  } else if (await ctx.db.organization.findUnique({ where: { slug } })) {
    throw conflict(`The slug "${slug}" is already taken`);
  }

  const id = newId("org");
  const org = await ctx.db.$transaction(async (tx) => {
    const created = await tx.organization.create({ data: { id, name: input.name, slug } });
    await tx.subscription.create({ data: { id: newId("sub"), organizationId: id, planId: plan.id } });
    if (ownerUserId) {
      await tx.member.create({
        data: { id: newId("mem"), organizationId: id, userId: ownerUserId, role: "owner" },
      });
    }
    await recordAudit(tx, ctx.actor, {
      organizationId: id,
      action: "organization.create",
      targetType: "organization",
      targetId: id,
      after: { name: input.name, slug, plan: plan.slug, owner: ownerUserId ?? null },
    });
    return created;
  });
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    planSlug: plan.slug,
    createdAt: org.createdAt.toISOString(),
  };
}
