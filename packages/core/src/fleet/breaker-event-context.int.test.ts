import { afterAll, describe, expect, it } from "vitest";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { newId } from "../ids";
import { seedProject, testDeps } from "../testing/fleet";
import { loadBreakerEventContext } from "./breaker-event-context";

const deps = testDeps();
afterAll(() => deps.db.$disconnect());

describe("loadBreakerEventContext", () => {
  it("agrees with resolveEntitlements on breaker_webhooks through plans, overrides, expiry and pinning", async () => {
    const check = async (orgId: string, projectId: string) => {
      const now = new Date();
      const ctx = await loadBreakerEventContext(deps.db, projectId, now);
      const ent = await resolveEntitlements(deps.db, orgId, projectId, now);
      expect(ctx.breakerWebhooks).toBe(ent.values.breaker_webhooks);
      expect(ctx.organizationId).toBe(orgId);
      return ctx.breakerWebhooks;
    };
    const override = (organizationId: string, projectId: string | null, value: unknown, expiresAt?: Date) =>
      deps.db.entitlementOverride.create({
        data: {
          id: newId("ovr"),
          organizationId,
          projectId,
          featureKey: "breaker_webhooks",
          value: value as never,
          reason: "test",
          expiresAt,
          createdAt: new Date(Date.now() + Math.floor(Math.random() * 1000)),
        },
      });

    const free = await seedProject(deps, "free");
    expect(await check(free.org.id, free.project.id)).toBe(false);
    await override(free.org.id, null, true, new Date(Date.now() - 1000)); // expired: ignored
    expect(await check(free.org.id, free.project.id)).toBe(false);
    await override(free.org.id, null, "yes"); // wrong type: ignored
    expect(await check(free.org.id, free.project.id)).toBe(false);
    await override(free.org.id, null, true);
    expect(await check(free.org.id, free.project.id)).toBe(true);
    await override(free.org.id, free.project.id, false); // project beats organization
    expect(await check(free.org.id, free.project.id)).toBe(false);

    const team = await seedProject(deps, "team");
    expect(await check(team.org.id, team.project.id)).toBe(true);
    // Pinned to the free plan's version: the pin decides.
    const freeVersion = await deps.db.planVersion.findFirstOrThrow({
      where: { plan: { slug: "free" } },
      orderBy: { version: "desc" },
    });
    await deps.db.subscription.update({
      where: { organizationId: team.org.id },
      data: { pinnedPlanVersionId: freeVersion.id },
    });
    expect(await check(team.org.id, team.project.id)).toBe(false);
    await deps.db.subscription.delete({ where: { organizationId: team.org.id } });
    expect(await check(team.org.id, team.project.id)).toBe(false); // no subscription: the default
  });
});
