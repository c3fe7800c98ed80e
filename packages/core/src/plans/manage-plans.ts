import type { Tx } from "@breakwater/db";
import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { invalidateEntitlements } from "../entitlements/entitlement-cache";
import {
  defaultEntitlements,
  type Entitlements,
  FEATURE_KEYS,
  FEATURES,
  type FeatureKey,
  type FeatureValue,
  isFeatureKey,
} from "../entitlements/features";
import { conflict, DomainError, invalid, notFound } from "../errors";
import { newId } from "../ids";
import {
  entitlementMapInput,
  parseInput,
  priceCentsInput,
  requireOperator,
} from "../operator/operator-input";
import { jsonValue } from "./seed-default-plans";

const planSlugInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/, "Slug: 2–40 lowercase letters, digits or dashes");

export const createPlanInput = z.object({
  slug: planSlugInput,
  name: z.string().trim().min(1, "Name is required").max(60),
  priceCents: priceCentsInput,
  /** Features not given take the catalogue default. */
  entitlements: entitlementMapInput.default({}),
  changeNote: z.string().trim().max(500).optional(),
});

export const updatePlanInput = z.object({
  planSlug: z.string().min(1),
  /** The version the editor was opened on; a newer one means someone else saved meanwhile. */
  expectedVersion: z.number().int().min(1),
  name: z.string().trim().min(1, "Name is required").max(60).optional(),
  priceCents: priceCentsInput.optional(),
  /** Features not given keep the previous version's value. */
  entitlements: entitlementMapInput.default({}),
  changeNote: z.string().trim().max(500).optional(),
});

export interface PlanVersionDto {
  id: string;
  version: number;
  priceCents: number;
  entitlements: Entitlements;
  changeNote: string | null;
  createdAt: string;
  createdById: string | null;
}

export interface PlanDetailDto {
  id: string;
  slug: string;
  name: string;
  archived: boolean;
  subscriptionCount: number;
  pinnedCount: number;
  /** Newest first. */
  versions: PlanVersionDto[];
  features: { key: FeatureKey; type: "bool" | "int" | "limit"; description: string }[];
}

export interface PlanDiffEntry {
  field: "priceCents" | FeatureKey;
  before: FeatureValue;
  after: FeatureValue;
}

/** The closed feature catalogue with each feature's type, in catalogue order. */
export function featureCatalogue(): PlanDetailDto["features"] {
  return FEATURE_KEYS.map((key) => ({
    key,
    type: FEATURES[key].type,
    description: FEATURES[key].description,
  }));
}

function entitlementsOf(rows: { featureKey: string; value: unknown }[]): Entitlements {
  const values = defaultEntitlements() as Record<FeatureKey, FeatureValue>;
  for (const r of rows) if (isFeatureKey(r.featureKey)) values[r.featureKey] = r.value as FeatureValue;
  return values as Entitlements;
}

function versionDto(v: {
  id: string;
  version: number;
  priceCents: number;
  changeNote: string | null;
  createdAt: Date;
  createdById: string | null;
  entitlements: { featureKey: string; value: unknown }[];
}): PlanVersionDto {
  return {
    id: v.id,
    version: v.version,
    priceCents: v.priceCents,
    entitlements: entitlementsOf(v.entitlements),
    changeNote: v.changeNote,
    createdAt: v.createdAt.toISOString(),
    createdById: v.createdById,
  };
}

const actorUserId = (ctx: Ctx) => (ctx.actor.type === "user" ? ctx.actor.userId : null);

async function writeVersion(
  tx: Tx,
  ctx: Ctx,
  planId: string,
  version: number,
  priceCents: number,
  entitlements: Entitlements,
  changeNote: string | undefined,
): Promise<string> {
  const id = newId("planv");
  await tx.planVersion.create({
    data: { id, planId, version, priceCents, changeNote: changeNote ?? null, createdById: actorUserId(ctx) },
  });
  await tx.planEntitlement.createMany({
    data: FEATURE_KEYS.map((featureKey) => ({
      planVersionId: id,
      featureKey,
      value: jsonValue(entitlements[featureKey]),
    })),
  });
  return id;
}

/** Creates a plan with its version 1 (missing features take the catalogue default); operators only. */
export async function createPlan(ctx: Ctx, raw: z.input<typeof createPlanInput>): Promise<PlanDetailDto> {
  requireOperator(ctx);
  const input = parseInput(createPlanInput, raw);
  if (await ctx.db.plan.findUnique({ where: { slug: input.slug } })) {
    throw new DomainError("CONFLICT", `A plan with the slug "${input.slug}" already exists`, {
      fieldErrors: { slug: "Already taken" },
    });
  }
  const entitlements = { ...defaultEntitlements(), ...input.entitlements } as Entitlements;
  const planId = newId("plan");
  await ctx.db.$transaction(async (tx) => {
    await tx.plan.create({ data: { id: planId, slug: input.slug, name: input.name } });
    await writeVersion(tx, ctx, planId, 1, input.priceCents, entitlements, input.changeNote ?? "Created");
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: "plan.create",
      targetType: "plan",
      targetId: planId,
      after: { slug: input.slug, name: input.name, version: 1, priceCents: input.priceCents, entitlements },
    });
  });
  return getPlan(ctx, input.slug);
}

/**
 * Saves an edit of a plan as a new version. `expectedVersion` must still be the latest: when
 * another edit landed first, the save is refused (CONFLICT) instead of silently overwriting it.
 * Unpinned subscriptions follow the new version at once (every replica's cache is invalidated).
 */
export async function updatePlan(ctx: Ctx, raw: z.input<typeof updatePlanInput>): Promise<PlanDetailDto> {
  requireOperator(ctx);
  const input = parseInput(updatePlanInput, raw);
  await ctx.db.$transaction(async (tx) => {
    // Row lock on the plan: concurrent saves of one plan queue here and the second sees the first's version.
    const locked = await tx.$queryRaw<{ id: string; name: string }[]>`
      SELECT id, name FROM plans WHERE slug = ${input.planSlug} FOR UPDATE`;
    const plan = locked[0];
    if (!plan) throw notFound("Plan");
    const latest = await tx.planVersion.findFirst({
      where: { planId: plan.id },
      orderBy: { version: "desc" },
      include: { entitlements: true },
    });
    const current = latest?.version ?? 0;
    if (current !== input.expectedVersion) {
      throw conflict(
        `This plan changed since you opened it (version ${input.expectedVersion}, now version ${current}). Reload it and apply your edit again.`,
      );
    }
    const before = {
      name: plan.name,
      version: current,
      priceCents: latest?.priceCents ?? 0,
      entitlements: entitlementsOf(latest?.entitlements ?? []),
    };
    const after = {
      name: input.name ?? plan.name,
      version: current + 1,
      priceCents: input.priceCents ?? before.priceCents,
      entitlements: { ...before.entitlements, ...input.entitlements } as Entitlements,
    };
    const changed =
      after.name !== before.name ||
      after.priceCents !== before.priceCents ||
      FEATURE_KEYS.some((k) => after.entitlements[k] !== before.entitlements[k]);
    if (!changed) throw invalid("Nothing changed: edit the price or a feature first");
    if (after.name !== before.name)
      await tx.plan.update({ where: { id: plan.id }, data: { name: after.name } });
    await writeVersion(
      tx,
      ctx,
      plan.id,
      after.version,
      after.priceCents,
      after.entitlements,
      input.changeNote,
    );
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: "plan.update",
      targetType: "plan",
      targetId: plan.id,
      before,
      after,
    });
  });
  await invalidateEntitlements(ctx, "all");
  return getPlan(ctx, input.planSlug);
}

/** Archives (no new subscriptions; existing ones stay) or restores a plan; operators only. */
export async function setPlanArchived(
  ctx: Ctx,
  input: { planSlug: string; archived: boolean },
): Promise<PlanDetailDto> {
  requireOperator(ctx);
  const plan = await ctx.db.plan.findUnique({ where: { slug: input.planSlug } });
  if (!plan) throw notFound("Plan");
  if ((plan.archivedAt !== null) !== input.archived) {
    await ctx.db.$transaction(async (tx) => {
      const archivedAt = input.archived ? new Date() : null;
      await tx.plan.update({ where: { id: plan.id }, data: { archivedAt } });
      await recordAudit(tx, ctx.actor, {
        organizationId: null,
        action: input.archived ? "plan.archive" : "plan.unarchive",
        targetType: "plan",
        targetId: plan.id,
        before: { archivedAt: plan.archivedAt },
        after: { archivedAt },
      });
    });
  }
  return getPlan(ctx, input.planSlug);
}

/** A plan with every version (newest first) and its subscriber counts; operators only. */
export async function getPlan(ctx: Ctx, planSlug: string): Promise<PlanDetailDto> {
  requireOperator(ctx);
  const plan = await ctx.db.plan.findUnique({
    where: { slug: planSlug },
    include: {
      versions: { orderBy: { version: "desc" }, include: { entitlements: true } },
      _count: { select: { subscriptions: true } },
    },
  });
  if (!plan) throw notFound("Plan");
  const pinnedCount = await ctx.db.subscription.count({
    where: { planId: plan.id, pinnedPlanVersionId: { not: null } },
  });
  return {
    id: plan.id,
    slug: plan.slug,
    name: plan.name,
    archived: plan.archivedAt !== null,
    subscriptionCount: plan._count.subscriptions,
    pinnedCount,
    versions: plan.versions.map(versionDto),
    features: featureCatalogue(),
  };
}

/** What changed between two versions of a plan (price and each feature), in catalogue order. */
export async function diffPlanVersions(
  ctx: Ctx,
  input: { planSlug: string; from: number; to: number },
): Promise<PlanDiffEntry[]> {
  const plan = await getPlan(ctx, input.planSlug);
  const find = (n: number) => {
    const v = plan.versions.find((x) => x.version === n);
    if (!v) throw notFound(`Version ${n} of plan "${plan.slug}"`);
    return v;
  };
  const a = find(input.from);
  const b = find(input.to);
  const diff: PlanDiffEntry[] = [];
  if (a.priceCents !== b.priceCents)
    diff.push({ field: "priceCents", before: a.priceCents, after: b.priceCents });
  for (const k of FEATURE_KEYS) {
    if (a.entitlements[k] !== b.entitlements[k])
      diff.push({ field: k, before: a.entitlements[k], after: b.entitlements[k] });
  }
  return diff;
}
