import { Prisma, type PrismaClient } from "@breakwater/db";
import { FEATURE_KEYS, FEATURES } from "../entitlements/features";
import { newId } from "../ids";
import { DEFAULT_PLANS } from "./default-plans";

/**
 * Ensures the feature catalogue and the four default plans exist. Idempotent: an existing plan
 * (possibly edited by the operator) is left as it is; only missing plans get a version 1.
 */
export async function seedDefaultPlans(db: PrismaClient): Promise<void> {
  await db.$transaction(async (tx) => {
    for (const key of FEATURE_KEYS) {
      const f = FEATURES[key];
      await tx.feature.upsert({
        where: { key },
        create: { key, type: f.type, description: f.description, defaultValue: jsonValue(f.default) },
        update: { type: f.type, description: f.description },
      });
    }
    for (const seed of DEFAULT_PLANS) {
      const existing = await tx.plan.findUnique({ where: { slug: seed.slug } });
      if (existing) continue;
      const planId = newId("plan");
      await tx.plan.create({ data: { id: planId, slug: seed.slug, name: seed.name } });
      const versionId = newId("planv");
      await tx.planVersion.create({
        data: {
          id: versionId,
          planId,
          version: 1,
          priceCents: seed.priceCents,
          changeNote: "Seeded default",
        },
      });
      await tx.planEntitlement.createMany({
        data: FEATURE_KEYS.map((featureKey) => ({
          planVersionId: versionId,
          featureKey,
          value: jsonValue(seed.entitlements[featureKey] ?? null),
        })),
      });
    }
  });
}

/** Prisma needs JsonNull for a JSON `null` value. */
export function jsonValue(v: boolean | number | null): boolean | number | typeof Prisma.JsonNull {
  return v === null ? Prisma.JsonNull : v;
}
