import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { invalid, notFound } from "../errors";
import { newId } from "../ids";
import { parseInput, requireOperator } from "../operator/operator-input";
import { invalidateEntitlements } from "./entitlement-cache";

/** An organization by id or slug (operators and the CLI name it either way). */
export async function findOrganization(ctx: Ctx, idOrSlug: string) {
  const org = await ctx.db.organization.findFirst({ where: { OR: [{ id: idOrSlug }, { slug: idOrSlug }] } });
  if (!org) throw notFound("Organization");
  return org;
}

export const setOrganizationPlanInput = z.object({
  organization: z.string().min(1, "Organization is required"),
  planSlug: z.string().min(1, "Plan is required"),
});

export interface SubscriptionDto {
  organizationId: string;
  planSlug: string;
  planName: string;
  /** The version pinned to, or null when following the latest. */
  pinnedVersion: number | null;
  /** The version in effect (pinned, else latest). */
  effectiveVersion: number;
}

async function subscriptionDto(ctx: Ctx, organizationId: string): Promise<SubscriptionDto> {
  const sub = await ctx.db.subscription.findUnique({
    where: { organizationId },
    include: {
      plan: { include: { versions: { orderBy: { version: "desc" }, take: 1 } } },
      pinnedPlanVersion: true,
    },
  });
  if (!sub) throw notFound("Subscription");
  return {
    organizationId,
    planSlug: sub.plan.slug,
    planName: sub.plan.name,
    pinnedVersion: sub.pinnedPlanVersion?.version ?? null,
    effectiveVersion: sub.pinnedPlanVersion?.version ?? sub.plan.versions[0]?.version ?? 0,
  };
}

/**
 * Moves an organization to another plan (its latest version; any pin is dropped). An archived
 * plan takes no new subscriptions. Operators only; audited; every replica re-resolves at once.
 */
export async function setOrganizationPlan(
  ctx: Ctx,
  raw: z.input<typeof setOrganizationPlanInput>,
): Promise<SubscriptionDto> {
  requireOperator(ctx);
  const input = parseInput(setOrganizationPlanInput, raw);
  const org = await findOrganization(ctx, input.organization);
  const plan = await ctx.db.plan.findUnique({ where: { slug: input.planSlug } });
  if (!plan) throw invalid(`Unknown plan "${input.planSlug}"`, { fieldErrors: { planSlug: "Unknown plan" } });
  if (plan.archivedAt) {
    throw invalid(`The plan "${plan.slug}" is archived and takes no new subscriptions`, {
      fieldErrors: { planSlug: "Archived plan" },
    });
  }
  await ctx.db.$transaction(async (tx) => {
    const before = await tx.subscription.findUnique({
      where: { organizationId: org.id },
      include: { plan: true, pinnedPlanVersion: true },
    });
    if (before) {
      await tx.subscription.update({
        where: { organizationId: org.id },
        data: { planId: plan.id, pinnedPlanVersionId: null },
      });
    } else {
      await tx.subscription.create({ data: { id: newId("sub"), organizationId: org.id, planId: plan.id } });
    }
    await recordAudit(tx, ctx.actor, {
      organizationId: org.id,
      action: "subscription.change_plan",
      targetType: "organization",
      targetId: org.id,
      before: before
        ? { plan: before.plan.slug, pinnedVersion: before.pinnedPlanVersion?.version ?? null }
        : null,
      after: { plan: plan.slug, pinnedVersion: null },
    });
  });
  await invalidateEntitlements(ctx, { organizationId: org.id });
  return subscriptionDto(ctx, org.id);
}

export const pinSubscriptionInput = z.object({
  organization: z.string().min(1, "Organization is required"),
  /** A version of the organization's plan; null unpins. */
  version: z
    .number({ message: "Version must be a whole number" })
    .int("Version must be a whole number")
    .min(1, "Versions start at 1")
    .nullable(),
});

/**
 * Pins an organization's subscription to one version of its plan (grandfathering), or unpins it
 * (version null: it follows the latest again). Operators only; audited.
 */
export async function pinSubscription(
  ctx: Ctx,
  raw: z.input<typeof pinSubscriptionInput>,
): Promise<SubscriptionDto> {
  requireOperator(ctx);
  const input = parseInput(pinSubscriptionInput, raw);
  const org = await findOrganization(ctx, input.organization);
  const sub = await ctx.db.subscription.findUnique({
    where: { organizationId: org.id },
    include: { plan: true, pinnedPlanVersion: true },
  });
  if (!sub) throw notFound("Subscription");
  let pinnedPlanVersionId: string | null = null;
  if (input.version !== null) {
    const v = await ctx.db.planVersion.findUnique({
      where: { planId_version: { planId: sub.planId, version: input.version } },
    });
    if (!v) {
      throw invalid(`Plan "${sub.plan.slug}" has no version ${input.version}`, {
        fieldErrors: { version: "No such version" },
      });
    }
    pinnedPlanVersionId = v.id;
  }
  await ctx.db.$transaction(async (tx) => {
    await tx.subscription.update({ where: { id: sub.id }, data: { pinnedPlanVersionId } });
    await recordAudit(tx, ctx.actor, {
      organizationId: org.id,
      action: input.version === null ? "subscription.unpin" : "subscription.pin",
      targetType: "organization",
      targetId: org.id,
      before: { plan: sub.plan.slug, pinnedVersion: sub.pinnedPlanVersion?.version ?? null },
      after: { plan: sub.plan.slug, pinnedVersion: input.version },
    });
  });
  await invalidateEntitlements(ctx, { organizationId: org.id });
  return subscriptionDto(ctx, org.id);
}
