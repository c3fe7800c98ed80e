import { type Ctx, isOperatorActor } from "../context";
import { notFound } from "../errors";
import { failoverDirective } from "./entitlement-cache";
import { FEATURE_KEYS, FEATURES, type FeatureKey, type FeatureValue } from "./features";
import { resolveEntitlements } from "./resolve-entitlements";

export type EntitlementLayer = "project_override" | "organization_override" | "plan" | "default";

export interface ExplainedFeature {
  key: FeatureKey;
  type: "bool" | "int" | "limit";
  value: FeatureValue;
  /** The layer that decided the value (project override › organization override › plan version › default). */
  layer: EntitlementLayer;
  /** A sentence naming the deciding layer, e.g. `Project override "pilot" (until …)` or `Plan Team v3`. */
  decidedBy: string;
  reason: string | null;
  /** Since when this value has applied (ISO), as far as the deciding layer tells. */
  since: string | null;
  /** When the deciding override stops applying by itself (ISO), if it expires. */
  expiresAt: string | null;
}

export interface ProjectEntitlementsDto {
  projectId: string;
  organizationId: string;
  plan: { slug: string; name: string; version: number; pinned: boolean } | null;
  /** What the project's SDKs receive on every budget check. */
  failoverDirective: { version: "1"; failover_tuning_allowed: boolean };
  features: ExplainedFeature[];
}

/**
 * "Why this value": every feature's effective value for one project and the layer that decided
 * it, with since when. Operators see any project; members of the project's organization see
 * their own (read-only); anyone else gets NOT_FOUND.
 */
export async function explainProjectEntitlements(
  ctx: Ctx,
  projectId: string,
  now = new Date(),
): Promise<ProjectEntitlementsDto> {
  const project = await ctx.db.project.findUnique({
    where: { id: projectId },
    select: { id: true, organizationId: true, createdAt: true },
  });
  const operator = isOperatorActor(ctx.actor);
  if (!project || (!operator && ctx.organizationId !== project.organizationId)) throw notFound("Project");

  const resolved = await resolveEntitlements(ctx.db, project.organizationId, project.id, now);
  const sub = await ctx.db.subscription.findUnique({
    where: { organizationId: project.organizationId },
    include: { plan: true },
  });
  // Plan versions oldest → newest up to the one in effect, to date each plan value by the first
  // version of the unbroken run that carries it.
  const versions = sub
    ? await ctx.db.planVersion.findMany({
        where: { planId: sub.planId },
        orderBy: { version: "asc" },
        include: { entitlements: true },
      })
    : [];
  const effectiveIdx = versions.findIndex((v) => v.id === resolved.planVersionId);
  const overrideIds = FEATURE_KEYS.flatMap((k) => {
    const s = resolved.sources[k];
    return s.kind === "project_override" || s.kind === "organization_override" ? [s.overrideId] : [];
  });
  const overrides = new Map(
    (await ctx.db.entitlementOverride.findMany({ where: { id: { in: overrideIds } } })).map((o) => [o.id, o]),
  );

  const features = FEATURE_KEYS.map((key): ExplainedFeature => {
    const source = resolved.sources[key];
    const value = resolved.values[key] as FeatureValue;
    const base = { key, type: FEATURES[key].type, value };
    switch (source.kind) {
      case "project_override":
      case "organization_override": {
        const row = overrides.get(source.overrideId);
        const until = source.expiresAt ? ` until ${source.expiresAt.toISOString()}` : "";
        const label = source.kind === "project_override" ? "Project override" : "Organization override";
        return {
          ...base,
          layer: source.kind,
          decidedBy: `${label}: ${source.reason}${until}`,
          reason: source.reason,
          since: row?.createdAt.toISOString() ?? null,
          expiresAt: source.expiresAt?.toISOString() ?? null,
        };
      }
      case "plan": {
        let first = effectiveIdx;
        const valueAt = (i: number) =>
          versions[i]?.entitlements.find((e) => e.featureKey === key)?.value as FeatureValue | undefined;
        while (first > 0 && valueAt(first - 1) === value) first--;
        const versionSince = versions[first]?.createdAt;
        // The organization got this value when its subscription last changed, or when the version appeared.
        const subSince = sub?.updatedAt;
        const since =
          versionSince && subSince
            ? new Date(Math.max(versionSince.getTime(), subSince.getTime()))
            : (versionSince ?? subSince);
        return {
          ...base,
          layer: "plan",
          decidedBy: `Plan ${source.planName} v${source.version}`,
          reason: null,
          since: since?.toISOString() ?? null,
          expiresAt: null,
        };
      }
      default:
        return {
          ...base,
          layer: "default",
          decidedBy: "Default of the feature catalogue",
          reason: null,
          since: project.createdAt.toISOString(),
          expiresAt: null,
        };
    }
  });
  const effective = versions[effectiveIdx];
  return {
    projectId: project.id,
    organizationId: project.organizationId,
    plan:
      sub && effective
        ? {
            slug: sub.plan.slug,
            name: sub.plan.name,
            version: effective.version,
            pinned: sub.pinnedPlanVersionId !== null,
          }
        : null,
    failoverDirective: failoverDirective(resolved.values),
    features,
  };
}
