import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import type { RedisClient } from "@breakwater/queue";
import { pino } from "pino";
import { afterAll, describe, expect, it, vi } from "vitest";
import { InvalidationBus } from "../cache/invalidating-cache";
import { type Ctx, systemCtx } from "../context";
import { createEntitlementCache } from "../entitlements/entitlement-cache";
import { explainProjectEntitlements } from "../entitlements/explain-entitlements";
import { FEATURE_KEYS } from "../entitlements/features";
import { clearEntitlementOverride, setEntitlementOverride } from "../entitlements/manage-overrides";
import { pinSubscription, setOrganizationPlan } from "../entitlements/manage-subscriptions";
import { DomainError } from "../errors";
import { newId } from "../ids";
import { createPlan, diffPlanVersions, getPlan, setPlanArchived, updatePlan } from "../plans/manage-plans";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";
import { listOrganizationsForOperator } from "./list-organizations";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const sys = systemCtx({ db, config, log: pino({ level: "silent" }) }, "operator-test");
const operator: Ctx = { ...sys, actor: { type: "user", userId: "user_operator", isOperator: true } };
const clients: RedisClient[] = [];
const buses: InvalidationBus[] = [];
async function replica() {
  const bus = InvalidationBus.fromTarget(config);
  await bus.start();
  buses.push(bus);
  return bus;
}
afterAll(async () => {
  for (const b of buses) await b.stop();
  await Promise.all(clients.map((c) => c.quit()));
  await db.$disconnect();
});

/** A private plan (tests never edit the seeded ones other suites rely on). */
async function plan(overrides: Record<string, unknown> = {}) {
  const slug = `p-${newId("res").slice(-10)}`;
  await createPlan(operator, {
    slug,
    name: `Plan ${slug}`,
    priceCents: 1000,
    entitlements: { failover_tuning: false, max_projects: 5, ...overrides },
  });
  return slug;
}

async function orgWithProject(planSlug: string) {
  const org = await createOrganization(sys, { name: `Ops ${newId("res")}`, planSlug });
  const project = await createProject(sys, { organizationId: org.id, name: "p" });
  return { org, project };
}

async function errorOf(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(err)}`);
  return err;
}

const failover = async (projectId: string) =>
  (await explainProjectEntitlements(operator, projectId)).features.find((f) => f.key === "failover_tuning");

describe("operator console: overrides", () => {
  it("project override › organization override › plan version › default, each named with since when", async () => {
    const slug = await plan();
    const { org, project } = await orgWithProject(slug);
    expect(await failover(project.id)).toMatchObject({
      value: false,
      layer: "plan",
      decidedBy: expect.stringMatching(/v1$/),
    });
    const budgetWebhooks = (await explainProjectEntitlements(operator, project.id)).features.find(
      (f) => f.key === "budget_webhooks",
    );
    expect(budgetWebhooks?.layer).toBe("plan"); // every catalogue feature is written into a version

    await setEntitlementOverride(operator, {
      organization: org.slug,
      featureKey: "failover_tuning",
      value: true,
      reason: "beta",
    });
    expect(await failover(project.id)).toMatchObject({
      value: true,
      layer: "organization_override",
      reason: "beta",
    });

    const pilot = await setEntitlementOverride(operator, {
      projectId: project.id,
      featureKey: "failover_tuning",
      value: false,
      reason: "pilot off",
    });
    const explained = await explainProjectEntitlements(operator, project.id);
    expect(explained.failoverDirective).toEqual({ version: "1", failover_tuning_allowed: false });
    expect(explained.features.find((f) => f.key === "failover_tuning")).toMatchObject({
      layer: "project_override",
      reason: "pilot off",
      since: pilot.createdAt,
    });

    // Setting again replaces the override of that scope and feature (one row, newest wins).
    await setEntitlementOverride(operator, {
      projectId: project.id,
      featureKey: "failover_tuning",
      value: true,
      reason: "pilot on",
    });
    expect(await db.entitlementOverride.count({ where: { projectId: project.id } })).toBe(1);
    expect(await failover(project.id)).toMatchObject({
      value: true,
      layer: "project_override",
      reason: "pilot on",
    });

    await clearEntitlementOverride(operator, { projectId: project.id, featureKey: "failover_tuning" });
    expect(await failover(project.id)).toMatchObject({ value: true, layer: "organization_override" });
    await clearEntitlementOverride(operator, {
      organization: org.id,
      featureKey: "failover_tuning",
      reason: "beta over",
    });
    expect(await failover(project.id)).toMatchObject({ value: false, layer: "plan" });

    const audits = await db.auditEvent.findMany({
      where: { organizationId: org.id, action: { startsWith: "entitlement_override." } },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
      ["entitlement_override.set", "operator", "user_operator"],
      ["entitlement_override.set", "operator", "user_operator"],
      ["entitlement_override.set", "operator", "user_operator"],
      ["entitlement_override.clear", "operator", "user_operator"],
      ["entitlement_override.clear", "operator", "user_operator"],
    ]);
    expect(audits[2]?.before).toMatchObject({ value: false, reason: "pilot off" });
    expect(audits[2]?.after).toMatchObject({ value: true, reason: "pilot on" });
    expect(audits[4]?.before).toMatchObject({ value: true, reason: "beta" });
    expect(audits[4]?.after).toEqual({ reason: "beta over" });
  });

  it("refuses bad overrides with field errors and writes nothing", async () => {
    const slug = await plan();
    const { org, project } = await orgWithProject(slug);
    const cases: [Record<string, unknown>, string][] = [
      [{ featureKey: "warp_drive", value: true }, "featureKey"],
      [{ featureKey: "failover_tuning", value: 3 }, "value"],
      [{ featureKey: "max_projects", value: -1 }, "value"],
      [{ featureKey: "failover_tuning", value: true, expiresAt: new Date(Date.now() - 60_000) }, "expiresAt"],
      [{ featureKey: "failover_tuning", value: true, reason: " " }, "reason"],
    ];
    for (const [input, field] of cases) {
      const err = await errorOf(
        setEntitlementOverride(operator, { projectId: project.id, reason: "r", ...input } as never),
      );
      expect(err.code).toBe("INVALID");
      expect(Object.keys((err.details?.fieldErrors ?? {}) as object)).toContain(field);
    }
    expect(await db.entitlementOverride.count({ where: { organizationId: org.id } })).toBe(0);
    expect(
      await db.auditEvent.count({ where: { organizationId: org.id, action: { startsWith: "entitlement" } } }),
    ).toBe(0);
  });

  it("an expired override stops applying on its own within a second, with no invalidation", async () => {
    const slug = await plan();
    const { project } = await orgWithProject(slug);
    const cache = createEntitlementCache({ db }); // no bus: only the expiry can change the answer
    const expiresAt = new Date(Date.now() + 1_500);
    await setEntitlementOverride(operator, {
      projectId: project.id,
      featureKey: "failover_tuning",
      value: true,
      reason: "trial",
      expiresAt,
    });
    expect((await cache.get(project.id)).failover_tuning).toBe(true);
    expect(cache.peek(project.id)?.failover_tuning).toBe(true);
    await vi.waitFor(
      async () => {
        if (Date.now() < expiresAt.getTime()) throw new Error("not expired yet");
        const hot = cache.peek(project.id) ?? (await cache.get(project.id));
        expect(hot.failover_tuning).toBe(false);
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(Date.now() - expiresAt.getTime()).toBeLessThan(1_000);
    expect(await failover(project.id)).toMatchObject({ value: false, layer: "plan" });
  });
});

describe("operator console: plans", () => {
  it("an edit is a new version that reaches every replica's cache within a second; the diff names what changed", async () => {
    const slug = await plan({ failover_tuning: true });
    const { project } = await orgWithProject(slug);
    const a = createEntitlementCache({ db, bus: await replica() });
    const b = createEntitlementCache({ db, bus: await replica() });
    expect((await a.get(project.id)).failover_tuning).toBe(true);
    expect((await b.get(project.id)).failover_tuning).toBe(true);
    const updated = await updatePlan(operator, {
      planSlug: slug,
      expectedVersion: 1,
      priceCents: 1500,
      entitlements: { failover_tuning: false },
    });
    const started = Date.now(); // committed and published: from here every replica must follow
    await vi.waitFor(
      async () => {
        expect((await a.get(project.id)).failover_tuning).toBe(false);
        expect((await b.get(project.id)).failover_tuning).toBe(false);
      },
      { timeout: 2_000, interval: 10 },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(updated.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(await diffPlanVersions(operator, { planSlug: slug, from: 1, to: 2 })).toEqual([
      { field: "priceCents", before: 1000, after: 1500 },
      { field: "failover_tuning", before: true, after: false },
    ]);
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { action: "plan.update", targetId: updated.id },
    });
    expect(audit.before).toMatchObject({
      version: 1,
      priceCents: 1000,
      entitlements: { failover_tuning: true },
    });
    expect(audit.after).toMatchObject({
      version: 2,
      priceCents: 1500,
      entitlements: { failover_tuning: false },
    });
  });

  it("two editors of one version: the second save is refused as changed since opened, nothing lost", async () => {
    const slug = await plan();
    const first = await updatePlan(operator, { planSlug: slug, expectedVersion: 1, priceCents: 2000 });
    expect(first.versions[0]?.version).toBe(2);
    const err = await errorOf(updatePlan(operator, { planSlug: slug, expectedVersion: 1, priceCents: 3000 }));
    expect(err.code).toBe("CONFLICT");
    expect(err.message).toMatch(/changed since you opened it/);
    // Concurrent saves of the same version: exactly one lands.
    const results = await Promise.allSettled([
      updatePlan(operator, { planSlug: slug, expectedVersion: 2, entitlements: { max_projects: 7 } }),
      updatePlan(operator, { planSlug: slug, expectedVersion: 2, entitlements: { max_projects: 8 } }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as DomainError).code).toBe("CONFLICT");
    const detail = await getPlan(operator, slug);
    expect(detail.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(detail.versions[1]?.priceCents).toBe(2000);
  });

  it("refuses a negative price, an unknown feature or a wrong type with field errors, writing no version", async () => {
    const slug = await plan();
    for (const [input, field] of [
      [{ priceCents: -1 }, "priceCents"],
      [{ entitlements: { warp_drive: true } }, "entitlements.warp_drive"],
      [{ entitlements: { failover_tuning: "yes" } }, "entitlements.failover_tuning"],
      [{ entitlements: { retention_days: -5 } }, "entitlements.retention_days"],
      [{ entitlements: { retention_days: null } }, "entitlements.retention_days"],
    ] as const) {
      const err = await errorOf(
        updatePlan(operator, { planSlug: slug, expectedVersion: 1, ...input } as never),
      );
      expect(err.code).toBe("INVALID");
      expect(err.details?.fieldErrors).toHaveProperty([field]);
    }
    expect((await getPlan(operator, slug)).versions).toHaveLength(1);
    const bad = await errorOf(createPlan(operator, { slug: "neg-plan", name: "N", priceCents: -100 }));
    expect(bad.details?.fieldErrors).toHaveProperty(["priceCents"]);
    expect(await db.plan.findUnique({ where: { slug: "neg-plan" } })).toBeNull();
  });

  it("pinned subscriptions stay on their version, unpinned follow the latest; a plan change drops the pin", async () => {
    const slug = await plan();
    const pinned = await orgWithProject(slug);
    const following = await orgWithProject(slug);
    await pinSubscription(operator, { organization: pinned.org.slug, version: 1 });
    await updatePlan(operator, {
      planSlug: slug,
      expectedVersion: 1,
      entitlements: { failover_tuning: true },
    });
    expect(await failover(pinned.project.id)).toMatchObject({
      value: false,
      decidedBy: expect.stringMatching(/v1$/),
    });
    expect(await failover(following.project.id)).toMatchObject({
      value: true,
      decidedBy: expect.stringMatching(/v2$/),
    });
    expect((await explainProjectEntitlements(operator, pinned.project.id)).plan).toMatchObject({
      version: 1,
      pinned: true,
    });

    const unpinned = await pinSubscription(operator, { organization: pinned.org.id, version: null });
    expect(unpinned).toMatchObject({ pinnedVersion: null, effectiveVersion: 2 });
    expect(await failover(pinned.project.id)).toMatchObject({ value: true });

    await pinSubscription(operator, { organization: pinned.org.id, version: 1 });
    const moved = await setOrganizationPlan(operator, { organization: pinned.org.slug, planSlug: "team" });
    expect(moved).toMatchObject({ planSlug: "team", pinnedVersion: null });
    expect(
      (
        await db.auditEvent.findMany({
          where: { organizationId: pinned.org.id, action: { startsWith: "subscription." } },
        })
      )
        .map((a) => a.action)
        .sort(),
    ).toEqual(["subscription.change_plan", "subscription.pin", "subscription.pin", "subscription.unpin"]);
    const err = await errorOf(pinSubscription(operator, { organization: pinned.org.id, version: 99 }));
    expect(err.code).toBe("INVALID");
  });

  it("an archived plan takes no new subscriptions while existing ones stay", async () => {
    const slug = await plan();
    const { org } = await orgWithProject(slug);
    await setPlanArchived(operator, { planSlug: slug, archived: true });
    const other = await createOrganization(sys, { name: `Other ${newId("res")}`, planSlug: "free" });
    expect(
      (await errorOf(setOrganizationPlan(operator, { organization: other.id, planSlug: slug }))).code,
    ).toBe("INVALID");
    const orgs = (await listOrganizationsForOperator(operator, { search: org.slug })).items;
    expect(orgs.find((o) => o.id === org.id)).toMatchObject({
      plan: { slug, version: 1, pinnedVersion: null },
      projects: [{ name: "p" }],
      requestsThisMonth: 0,
    });
    const detail = await getPlan(operator, slug);
    expect(detail).toMatchObject({ archived: true, subscriptionCount: 1 });
  });

  it("pages organizations newest first by keyset, searched by name or slug, without gaps or repeats", async () => {
    const tag = newId("res").slice(-10);
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await createOrganization(sys, { name: `Keyset ${tag} ${i}`, planSlug: "free" })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listOrganizationsForOperator>> =
        await listOrganizationsForOperator(operator, { search: `keyset ${tag}`, limit: 2, cursor });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((o) => o.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    const bySlug = await listOrganizationsForOperator(operator, { search: `KEYSET-${tag}-3` });
    expect(bySlug.items.map((o) => o.id)).toEqual([made[3]]);
  });

  it("only operators (and the system) may change plans or overrides", async () => {
    const slug = await plan();
    const { org, project } = await orgWithProject(slug);
    const owner: Ctx = {
      ...sys,
      actor: { type: "user", userId: "user_owner", isOperator: false },
      organizationId: org.id,
      role: "owner",
    };
    for (const p of [
      updatePlan(owner, { planSlug: slug, expectedVersion: 1, priceCents: 1 }),
      createPlan(owner, { slug: "mine", name: "Mine", priceCents: 0 }),
      setOrganizationPlan(owner, { organization: org.id, planSlug: "business" }),
      setEntitlementOverride(owner, {
        organization: org.id,
        featureKey: "failover_tuning",
        value: true,
        reason: "me",
      }),
      listOrganizationsForOperator(owner),
    ]) {
      expect((await errorOf(p)).code).toBe("FORBIDDEN");
    }
    // Its own members read "why this value" for their project; other tenants cannot learn it exists.
    expect((await explainProjectEntitlements(owner, project.id)).features).toHaveLength(FEATURE_KEYS.length);
    const stranger: Ctx = { ...owner, organizationId: "org_other" };
    expect((await errorOf(explainProjectEntitlements(stranger, project.id))).code).toBe("NOT_FOUND");
  });
});
