import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOf, planResource, subscriptionResource } from "./schemas";
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
