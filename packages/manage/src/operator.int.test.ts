import { createPlan, newId } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listOf,
  overrideResource,
  planResource,
  planVersionResource,
  priceCardResource,
  subscriptionResource,
} from "./schemas";
import {
  call,
  createManageTenant,
  createOperatorKey,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  shapeOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
let op: Awaited<ReturnType<typeof createOperatorKey>>;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h, "free");
  op = await createOperatorKey(h);
});
afterAll(async () => {
  await h?.close();
});

describe("operator endpoints", () => {
  it("an operator key lists plans and moves an organization to another plan (a billing webhook's job)", async () => {
    const plans = shapeOf(listOf(planResource), await call(h, "GET", "/operator/plans", { key: op.key }));
    expect(plans.data.map((p) => p.slug)).toEqual(expect.arrayContaining(["free", "team"]));

    const moved = await call(h, "PUT", `/operator/organizations/${t.organizationId}/plan`, {
      key: op.key,
      body: { planSlug: "team" },
    });
    expect(moved.status).toBe(200);
    expect(shapeOf(subscriptionResource, moved)).toMatchObject({
      organizationId: t.organizationId,
      planSlug: "team",
    });
    // The organization's own write key now gets the team plan's project limit.
    expect((await call(h, "POST", "/projects", { key: t.write, body: { name: "second" } })).status).toBe(201);
  });

  it("an unknown plan is 422 on planSlug; an unknown organization 404", async () => {
    const p = problemOf(
      await call(h, "PUT", `/operator/organizations/${t.organizationId}/plan`, {
        key: op.key,
        body: { planSlug: "gold" },
      }),
      422,
      "validation-failed",
    );
    expect(p.errors).toEqual([{ pointer: "/planSlug", detail: "Unknown plan" }]);
    problemOf(
      await call(h, "PUT", "/operator/organizations/org_nope/plan", {
        key: op.key,
        body: { planSlug: "team" },
      }),
      404,
      "not-found",
    );
  });

  it("organization keys, read or write, are 403 on operator endpoints; SDK keys 401", async () => {
    problemOf(await call(h, "GET", "/operator/plans", { key: t.write }), 403, "forbidden");
    problemOf(
      await call(h, "PUT", `/operator/organizations/${t.organizationId}/plan`, {
        key: t.write,
        body: { planSlug: "business" },
      }),
      403,
      "forbidden",
    );
    problemOf(await call(h, "GET", "/operator/plans", { key: t.sdkKey }), 401, "unauthorized");
    const sub = await h.db.subscription.findUniqueOrThrow({
      where: { organizationId: t.organizationId },
      include: { plan: true },
    });
    expect(sub.plan.slug).not.toBe("business");
  });

  it("the move is audited with the operator key's name", async () => {
    const row = await h.db.auditEvent.findFirst({
      where: { organizationId: t.organizationId, actorType: "management_key", actorId: op.keyId },
    });
    expect(row).not.toBeNull();
  });
});

const tag = () => newId("res").slice(-8);
/** A valid card of a provider the seed leaves empty, so nothing collides with the shared catalogue. */
const card = (model: string) => ({
  provider: "openai_compatible",
  model,
  inputPerMtok: "1.00",
  outputPerMtok: "4.00",
  source: "https://example.test/pricing",
  sourceDate: "2026-11-30",
});

describe("operator: plan versions and pins", () => {
  it("saves a new version of a plan; pins an organization to version 1 and unpins it", async () => {
    const slug = `api-${tag()}`;
    await createPlan(h.sys, { slug, name: "Api", priceCents: 1000, entitlements: { max_projects: 3 } });
    const org = await createManageTenant(h, slug);
    const saved = await call(h, "POST", `/operator/plans/${slug}/versions`, {
      key: op.key,
      body: {
        expectedVersion: 1,
        priceCents: 2500,
        entitlements: { max_projects: 5 },
        changeNote: "Q1 price",
      },
      headers: { "idempotency-key": `version-${slug}` },
    });
    expect(saved.status).toBe(201);
    expect(shapeOf(planVersionResource, saved)).toMatchObject({
      planSlug: slug,
      version: 2,
      priceCents: 2500,
      changeNote: "Q1 price",
      entitlements: { max_projects: 5, breaker_webhooks: false },
    });
    // A retry replays the first answer: no third version.
    const again = await call(h, "POST", `/operator/plans/${slug}/versions`, {
      key: op.key,
      body: {
        expectedVersion: 1,
        priceCents: 2500,
        entitlements: { max_projects: 5 },
        changeNote: "Q1 price",
      },
      headers: { "idempotency-key": `version-${slug}` },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");

    const pinned = await call(h, "PUT", `/operator/organizations/${org.organizationId}/pin`, {
      key: op.key,
      body: { version: 1 },
    });
    expect(shapeOf(subscriptionResource, pinned)).toMatchObject({ pinnedVersion: 1, effectiveVersion: 1 });
    const unpinned = await call(h, "DELETE", `/operator/organizations/${org.organizationId}/pin`, {
      key: op.key,
    });
    expect(shapeOf(subscriptionResource, unpinned)).toMatchObject({
      pinnedVersion: null,
      effectiveVersion: 2,
    });
  });

  it("bad entitlements, price or version are 422 on their field; a stale expectedVersion 409; unknown plan or organization 404", async () => {
    const slug = `api-${tag()}`;
    await createPlan(h.sys, { slug, name: "Api", priceCents: 0 });
    const p = problemOf(
      await call(h, "POST", `/operator/plans/${slug}/versions`, {
        key: op.key,
        body: { expectedVersion: 1, priceCents: -1, entitlements: { max_projects: "many", teleport: true } },
      }),
      422,
      "validation-failed",
    );
    expect(p.errors!.map((e) => e.pointer).sort()).toEqual([
      "/entitlements/max_projects",
      "/entitlements/teleport",
      "/priceCents",
    ]);
    problemOf(
      await call(h, "POST", `/operator/plans/${slug}/versions`, {
        key: op.key,
        body: { expectedVersion: 7, priceCents: 100 },
      }),
      409,
      "conflict",
    );
    problemOf(
      await call(h, "POST", "/operator/plans/no-such-plan/versions", {
        key: op.key,
        body: { expectedVersion: 1, priceCents: 100 },
      }),
      404,
      "not-found",
    );
    const pin = problemOf(
      await call(h, "PUT", `/operator/organizations/${t.organizationId}/pin`, {
        key: op.key,
        body: { version: 99 },
      }),
      422,
      "validation-failed",
    );
    expect(pin.errors).toEqual([{ pointer: "/version", detail: "No such version" }]);
    problemOf(
      await call(h, "PUT", `/operator/organizations/${t.organizationId}/pin`, {
        key: op.key,
        body: { version: null },
      }),
      422,
      "validation-failed",
    );
    problemOf(
      await call(h, "DELETE", "/operator/organizations/org_nope/pin", { key: op.key }),
      404,
      "not-found",
    );
  });
});

describe("operator: overrides", () => {
  it("sets, lists and removes an organization's override", async () => {
    const org = await createManageTenant(h, "free");
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const set = await call(h, "POST", `/operator/organizations/${org.organizationId}/overrides`, {
      key: op.key,
      body: { featureKey: "max_projects", value: 10, reason: "pilot", expiresAt },
    });
    expect(set.status).toBe(201);
    const o = shapeOf(overrideResource, set);
    expect(o).toMatchObject({
      organizationId: org.organizationId,
      featureKey: "max_projects",
      value: 10,
      expiresAt,
    });
    const list = shapeOf(
      listOf(overrideResource),
      await call(h, "GET", `/operator/organizations/${org.organizationId}/overrides`, { key: op.key }),
    );
    expect(list.data.map((x) => x.id)).toEqual([o.id]);
    // The organization's checks follow it: the free plan's one project is no longer the limit.
    expect((await call(h, "POST", "/projects", { key: org.write, body: { name: "two" } })).status).toBe(201);
    expect(
      (
        await call(h, "DELETE", `/operator/organizations/${org.organizationId}/overrides/${o.id}`, {
          key: op.key,
        })
      ).status,
    ).toBe(204);
    const after = await call(h, "GET", `/operator/organizations/${org.organizationId}/overrides`, {
      key: op.key,
    });
    expect(after.json.data).toEqual([]);
  });

  it("an unknown feature, a value of the wrong type, a past expiry or no reason are 422 on their field; unknown ids 404", async () => {
    const url = `/operator/organizations/${t.organizationId}/overrides`;
    const bad = async (body: unknown) =>
      problemOf(await call(h, "POST", url, { key: op.key, body }), 422, "validation-failed").errors!.map(
        (e) => e.pointer,
      );
    expect(await bad({ featureKey: "teleport", value: true, reason: "x" })).toEqual(["/featureKey"]);
    expect(await bad({ featureKey: "breaker_webhooks", value: 3, reason: "x" })).toEqual(["/value"]);
    expect(
      await bad({ featureKey: "max_projects", value: 3, reason: "x", expiresAt: "2020-01-01T00:00:00Z" }),
    ).toEqual(["/expiresAt"]);
    expect(await bad({ featureKey: "max_projects", value: 3, reason: " " })).toEqual(["/reason"]);
    problemOf(
      await call(h, "POST", "/operator/organizations/org_nope/overrides", {
        key: op.key,
        body: { featureKey: "max_projects", value: 3, reason: "x" },
      }),
      404,
      "not-found",
    );
    problemOf(await call(h, "DELETE", `${url}/ovr_nope`, { key: op.key }), 404, "not-found");
  });

  it("another organization's override is 404 under this organization's path, and stays", async () => {
    const theirs = await createManageTenant(h);
    const o = shapeOf(
      overrideResource,
      await call(h, "POST", `/operator/organizations/${theirs.organizationId}/overrides`, {
        key: op.key,
        body: { featureKey: "retention_days", value: 30, reason: "support" },
      }),
    );
    problemOf(
      await call(h, "DELETE", `/operator/organizations/${t.organizationId}/overrides/${o.id}`, {
        key: op.key,
      }),
      404,
      "not-found",
    );
    expect(await h.db.entitlementOverride.count({ where: { id: o.id } })).toBe(1);
  });
});

describe("operator: price cards", () => {
  it("adds a card and finds it in the catalogue", async () => {
    const model = `api-model-${tag()}`;
    const created = await call(h, "POST", "/operator/price-cards", { key: op.key, body: card(model) });
    expect(created.status).toBe(201);
    const c = shapeOf(priceCardResource, created);
    expect(c).toMatchObject({
      provider: "openai_compatible",
      model,
      longContext: null,
      sourceDate: "2026-11-30",
    });
    expect([Number(c.inputPerMtok), Number(c.outputPerMtok)]).toEqual([1, 4]);
    const found = shapeOf(
      listOf(priceCardResource),
      await call(h, "GET", `/operator/price-cards?search=${model}`, { key: op.key }),
    );
    expect(found.data.map((c) => c.model)).toEqual([model]);
    const first = shapeOf(
      listOf(priceCardResource),
      await call(h, "GET", "/operator/price-cards?limit=2", { key: op.key }),
    );
    expect(first.has_more).toBe(true);
    const next = shapeOf(
      listOf(priceCardResource),
      await call(h, "GET", `/operator/price-cards?limit=2&starting_after=${first.data[1]!.id}`, {
        key: op.key,
      }),
    );
    expect(next.data[0]!.id).not.toBe(first.data[1]!.id);
  });

  it("a taken model id, a bad rate or a bad cursor are 422 on their field", async () => {
    const model = `api-model-${tag()}`;
    expect((await call(h, "POST", "/operator/price-cards", { key: op.key, body: card(model) })).status).toBe(
      201,
    );
    const taken = problemOf(
      await call(h, "POST", "/operator/price-cards", { key: op.key, body: card(model) }),
      422,
      "validation-failed",
    );
    expect(taken.errors).toEqual([{ pointer: "/model", detail: expect.stringContaining("Already an id") }]);
    const rate = problemOf(
      await call(h, "POST", "/operator/price-cards", {
        key: op.key,
        body: { ...card(`${model}-2`), inputPerMtok: "cheap", provider: "acme" },
      }),
      422,
      "validation-failed",
    );
    expect(rate.errors!.map((e) => e.pointer).sort()).toEqual(["/inputPerMtok", "/provider"]);
    const cursor = problemOf(
      await call(h, "GET", "/operator/price-cards?starting_after=card_nope", { key: op.key }),
      422,
      "validation-failed",
    );
    expect(cursor.errors).toEqual([{ parameter: "starting_after", detail: expect.any(String) }]);
  });
});

describe("operator: security of the new endpoints", () => {
  it("organization keys are 403 on every one, SDK keys 401, and nothing changes", async () => {
    const routes: [string, string, unknown?][] = [
      ["POST", "/operator/plans/team/versions", { expectedVersion: 1, priceCents: 0 }],
      ["PUT", `/operator/organizations/${t.organizationId}/pin`, { version: 1 }],
      ["DELETE", `/operator/organizations/${t.organizationId}/pin`],
      ["GET", `/operator/organizations/${t.organizationId}/overrides`],
      [
        "POST",
        `/operator/organizations/${t.organizationId}/overrides`,
        { featureKey: "max_projects", value: 99, reason: "x" },
      ],
      ["DELETE", `/operator/organizations/${t.organizationId}/overrides/ovr_x`],
      ["GET", "/operator/price-cards"],
      ["POST", "/operator/price-cards", card("nope")],
    ];
    for (const [method, path, body] of routes) {
      problemOf(await call(h, method, path, { key: t.write, body }), 403, "forbidden");
      problemOf(await call(h, method, path, { key: t.read, body }), 403, "forbidden");
      problemOf(await call(h, method, path, { key: t.sdkKey, body }), 401, "unauthorized");
    }
    expect(await h.db.entitlementOverride.count({ where: { organizationId: t.organizationId } })).toBe(0);
  });
});
