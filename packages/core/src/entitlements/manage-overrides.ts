import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { newId } from "../ids";
import { featureKeyInput, featureValueInput, parseInput, requireOperator } from "../operator/operator-input";
import { jsonValue } from "../plans/seed-default-plans";
import { invalidateEntitlements } from "./entitlement-cache";
import { type FeatureKey, type FeatureValue, isFeatureKey, validateFeatureValue } from "./features";
import { findOrganization } from "./manage-subscriptions";

/** An override's fields, checked one by one (setOverrideInput adds the rules across them). */
export const setOverrideFields = z.object({
  organization: z.string().min(1).optional(),
  projectId: z.string().min(1).optional(),
  featureKey: featureKeyInput,
  value: featureValueInput.meta({
    description: "Of the feature's type: true or false, a whole number ≥ 0, or null (unlimited) on a limit",
  }),
  reason: z.string().trim().min(1, "A reason is required").max(500),
  expiresAt: z.coerce
    .date({ message: "Expiry must be a date" })
    .nullish()
    .meta({ description: "An ISO 8601 time in the future; absent or null = never" }),
});

export const setOverrideInput = setOverrideFields.superRefine((o, ctx) => {
  if ((o.organization === undefined) === (o.projectId === undefined)) {
    ctx.addIssue({ code: "custom", path: ["scope"], message: "Give either an organization or a project" });
  }
  // (An unknown feature is already refused on its own field.)
  const problem = isFeatureKey(o.featureKey) ? validateFeatureValue(o.featureKey, o.value) : null;
  if (problem) ctx.addIssue({ code: "custom", path: ["value"], message: problem });
  if (o.expiresAt && o.expiresAt.getTime() <= Date.now()) {
    ctx.addIssue({ code: "custom", path: ["expiresAt"], message: "The expiry is in the past" });
  }
});

export const clearOverrideInput = z
  .object({
    organization: z.string().min(1).optional(),
    projectId: z.string().min(1).optional(),
    featureKey: featureKeyInput,
    reason: z.string().trim().max(500).optional(),
  })
  .refine((o) => (o.organization === undefined) !== (o.projectId === undefined), {
    message: "Give either an organization or a project",
    path: ["scope"],
  });

export interface OverrideDto {
  id: string;
  organizationId: string;
  projectId: string | null;
  featureKey: FeatureKey;
  value: FeatureValue;
  reason: string;
  expiresAt: string | null;
  createdAt: string;
  createdById: string | null;
}

async function resolveScope(ctx: Ctx, input: { organization?: string; projectId?: string }) {
  if (input.projectId) {
    const project = await ctx.db.project.findUnique({
      where: { id: input.projectId },
      select: { id: true, organizationId: true },
    });
    if (!project) throw notFound("Project");
    return { organizationId: project.organizationId, projectId: project.id };
  }
  const org = await findOrganization(ctx, input.organization ?? "");
  return { organizationId: org.id, projectId: null };
}

function overrideDto(o: {
  id: string;
  organizationId: string;
  projectId: string | null;
  featureKey: string;
  value: unknown;
  reason: string;
  expiresAt: Date | null;
  createdAt: Date;
  createdById: string | null;
}): OverrideDto {
  return {
    id: o.id,
    organizationId: o.organizationId,
    projectId: o.projectId,
    featureKey: o.featureKey as FeatureKey,
    value: o.value as FeatureValue,
    reason: o.reason,
    expiresAt: o.expiresAt?.toISOString() ?? null,
    createdAt: o.createdAt.toISOString(),
    createdById: o.createdById,
  };
}

/**
 * Sets an organization- or project-level override of one feature (replacing any earlier one of
 * that scope and feature), with a reason and an optional expiry that must lie in the future.
 * Operators only; audited; reaches every replica's hot path through the invalidation bus.
 */
export async function setEntitlementOverride(
  ctx: Ctx,
  raw: z.input<typeof setOverrideInput>,
): Promise<OverrideDto> {
  requireOperator(ctx);
  const input = parseInput(setOverrideInput, raw);
  const scope = await resolveScope(ctx, input);
  const created = await ctx.db.$transaction(async (tx) => {
    const previous = await tx.entitlementOverride.findMany({
      where: {
        organizationId: scope.organizationId,
        projectId: scope.projectId,
        featureKey: input.featureKey,
      },
    });
    if (previous.length)
      await tx.entitlementOverride.deleteMany({ where: { id: { in: previous.map((p) => p.id) } } });
    const row = await tx.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: scope.organizationId,
        projectId: scope.projectId,
        featureKey: input.featureKey,
        value: jsonValue(input.value),
        reason: input.reason,
        expiresAt: input.expiresAt ?? null,
        createdById: ctx.actor.type === "user" ? ctx.actor.userId : null,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: scope.organizationId,
      action: "entitlement_override.set",
      targetType: scope.projectId ? "project" : "organization",
      targetId: scope.projectId ?? scope.organizationId,
      before: previous[0] ? overrideDto(previous[0]) : null,
      after: overrideDto(row),
    });
    return row;
  });
  await invalidateEntitlements(
    ctx,
    scope.projectId ? { projectId: scope.projectId } : { organizationId: scope.organizationId },
  );
  return overrideDto(created);
}

/** Removes the override of one feature at one scope; operators only; audited. NOT_FOUND when none. */
export async function clearEntitlementOverride(
  ctx: Ctx,
  raw: z.input<typeof clearOverrideInput>,
): Promise<{ cleared: OverrideDto }> {
  requireOperator(ctx);
  const input = parseInput(clearOverrideInput, raw);
  const scope = await resolveScope(ctx, input);
  const cleared = await ctx.db.$transaction(async (tx) => {
    const rows = await tx.entitlementOverride.findMany({
      where: {
        organizationId: scope.organizationId,
        projectId: scope.projectId,
        featureKey: input.featureKey,
      },
      orderBy: { createdAt: "desc" },
    });
    const first = rows[0];
    if (!first) throw notFound(`An override of ${input.featureKey} at that scope`);
    await tx.entitlementOverride.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    await recordAudit(tx, ctx.actor, {
      organizationId: scope.organizationId,
      action: "entitlement_override.clear",
      targetType: scope.projectId ? "project" : "organization",
      targetId: scope.projectId ?? scope.organizationId,
      before: overrideDto(first),
      after: input.reason ? { reason: input.reason } : null,
    });
    return first;
  });
  await invalidateEntitlements(
    ctx,
    scope.projectId ? { projectId: scope.projectId } : { organizationId: scope.organizationId },
  );
  return { cleared: overrideDto(cleared) };
}

/** Overrides of an organization (both levels), newest first, including expired ones (marked by expiresAt). */
export async function listEntitlementOverrides(ctx: Ctx, organization: string): Promise<OverrideDto[]> {
  requireOperator(ctx);
  const org = await findOrganization(ctx, organization);
  const rows = await ctx.db.entitlementOverride.findMany({
    where: { organizationId: org.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(overrideDto);
}
