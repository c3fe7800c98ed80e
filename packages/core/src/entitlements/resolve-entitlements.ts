import type { PrismaClient, Tx } from "@breakwater/db";
import {
  defaultEntitlements,
  type Entitlements,
  FEATURE_KEYS,
  type FeatureKey,
  type FeatureValue,
  isFeatureKey,
  validateFeatureValue,
} from "./features";

export type EntitlementSource =
  | { kind: "default" }
  | { kind: "plan"; planSlug: string; planName: string; version: number }
  | { kind: "organization_override"; overrideId: string; reason: string; expiresAt: Date | null }
  | { kind: "project_override"; overrideId: string; reason: string; expiresAt: Date | null };

export interface ResolvedEntitlements {
  values: Entitlements;
  sources: Record<FeatureKey, EntitlementSource>;
  planVersionId: string | null;
}

/**
 * Effective entitlements for an organization, or for one of its projects when projectId is given:
 * project override > organization override > plan version (pinned or latest) > feature default.
 * Expired overrides are ignored.
 */
export async function resolveEntitlements(
  db: PrismaClient | Tx,
  organizationId: string,
  projectId?: string,
  now = new Date(),
): Promise<ResolvedEntitlements> {
  const values = defaultEntitlements() as Record<FeatureKey, FeatureValue>;
  const sources = Object.fromEntries(FEATURE_KEYS.map((k) => [k, { kind: "default" }])) as Record<
    FeatureKey,
    EntitlementSource
  >;

  const sub = await db.subscription.findUnique({
    where: { organizationId },
    include: { plan: true, pinnedPlanVersion: { include: { entitlements: true } } },
  });
  let planVersionId: string | null = null;
  if (sub) {
    const version =
      sub.pinnedPlanVersion ??
      (await db.planVersion.findFirst({
        where: { planId: sub.planId },
        orderBy: { version: "desc" },
        include: { entitlements: true },
      }));
    if (version) {
      planVersionId = version.id;
      for (const e of version.entitlements) {
        if (!isFeatureKey(e.featureKey) || validateFeatureValue(e.featureKey, e.value) !== null) continue;
        values[e.featureKey] = e.value as FeatureValue;
        sources[e.featureKey] = {
          kind: "plan",
          planSlug: sub.plan.slug,
          planName: sub.plan.name,
          version: version.version,
        };
      }
    }
  }

  const overrides = await db.entitlementOverride.findMany({
    where: {
      organizationId,
      OR: [{ projectId: null }, ...(projectId ? [{ projectId }] : [])],
      AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }],
    },
    orderBy: { createdAt: "asc" },
  });
  // Organization overrides first, then project overrides, so the narrower scope wins.
  for (const scope of ["organization", "project"] as const) {
    for (const o of overrides) {
      if ((scope === "project") !== (o.projectId !== null)) continue;
      if (!isFeatureKey(o.featureKey) || validateFeatureValue(o.featureKey, o.value) !== null) continue;
      values[o.featureKey] = o.value as FeatureValue;
      sources[o.featureKey] = {
        kind: scope === "project" ? "project_override" : "organization_override",
        overrideId: o.id,
        reason: o.reason,
        expiresAt: o.expiresAt,
      };
    }
  }
  return { values: values as Entitlements, sources, planVersionId };
}
