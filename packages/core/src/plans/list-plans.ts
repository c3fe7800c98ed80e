import type { Ctx } from "../context";
import { type Entitlements, FEATURE_KEYS, type FeatureValue, isFeatureKey } from "../entitlements/features";

export interface PlanDto {
  id: string;
  slug: string;
  name: string;
  /** Latest version number (what new and unpinned subscriptions get). */
  version: number;
  priceCents: number;
  entitlements: Partial<Entitlements>;
  subscriptionCount: number;
  archived: boolean;
}

/**
 * A plan as listPlans reads it: its latest version (at most one) with that version's entitlements,
 * and how many subscriptions it has. Also what the admin CLI's Prisma-free `plan list` selects in SQL.
 */
export interface PlanListRow {
  id: string;
  slug: string;
  name: string;
  archivedAt: Date | string | null;
  versions: { version: number; priceCents: number; entitlements: { featureKey: string; value: unknown }[] }[];
  _count: { subscriptions: number };
}

/** Every plan with its latest version's price and entitlements, cheapest first. */
export async function listPlans(ctx: Ctx): Promise<PlanDto[]> {
  const plans = await ctx.db.plan.findMany({
    include: {
      versions: { orderBy: { version: "desc" }, take: 1, include: { entitlements: true } },
      _count: { select: { subscriptions: true } },
    },
  });
  return planDtosFrom(plans);
}

/** PlanDtos from the rows listPlans reads: entitlements in the catalogue's key order, cheapest plan first. */
export function planDtosFrom(plans: PlanListRow[]): PlanDto[] {
  const rows = plans.map((p) => {
    const latest = p.versions[0];
    const entitlements: Partial<Record<string, FeatureValue>> = {};
    for (const e of latest?.entitlements ?? []) {
      if (isFeatureKey(e.featureKey)) entitlements[e.featureKey] = e.value as FeatureValue;
    }
    // Stable key order (the catalogue's) so listings diff cleanly.
    const ordered = Object.fromEntries(
      FEATURE_KEYS.filter((k) => k in entitlements).map((k) => [k, entitlements[k]]),
    ) as Partial<Entitlements>;
    return {
      id: p.id,
      slug: p.slug,
      name: p.name,
      version: latest?.version ?? 0,
      priceCents: latest?.priceCents ?? 0,
      entitlements: ordered,
      subscriptionCount: p._count.subscriptions,
      archived: p.archivedAt !== null,
    };
  });
  return rows.sort((a, b) => a.priceCents - b.priceCents || a.slug.localeCompare(b.slug));
}
