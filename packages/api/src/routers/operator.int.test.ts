import { afterAll, describe, expect, it } from "vitest";
import { fieldErrorsOf } from "../errors";
import { apiTestEnv, codeOf } from "../testing";

const { deps, signUp, close } = apiTestEnv("api-operator-test");
afterAll(close);

async function makeOperator(userId: string) {
  await deps.db.user.update({ where: { id: userId }, data: { isOperator: true } });
}

describe("operator procedures", () => {
  it("every operator procedure is FORBIDDEN to a non-operator, even an organization owner", async () => {
    const owner = await signUp("Owen");
    await deps.db.user.update({ where: { id: owner.userId }, data: { isOperator: false } });
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Owned Inc" });
    const project = await asOwner.project.create({ name: "api" });
    const calls: Promise<unknown>[] = [
      asOwner.operator.listPlans(),
      asOwner.operator.getPlan({ planSlug: "team" }),
      asOwner.operator.getPriceCard({ id: "card_000000000000000000000000" }),
      asOwner.operator.createPriceCard({ provider: "openai", model: "sneaky-model" } as never),
      asOwner.operator.startRepricing({ provider: "openai", model: "gpt-4o" }),
      asOwner.operator.createPlan({ slug: "sneaky", name: "Sneaky", priceCents: 0 }),
      asOwner.operator.updatePlan({ planSlug: "team", expectedVersion: 1, priceCents: 0 }),
      asOwner.operator.diffPlanVersions({ planSlug: "team", from: 1, to: 1 }),
      asOwner.operator.setPlanArchived({ planSlug: "team", archived: true }),
      asOwner.operator.listOrganizations({}),
      asOwner.operator.listPriceCards({}),
      asOwner.operator.listUnpricedModels(),
      asOwner.operator.explainPriceHints({ provider: "openai", model: "gpt-4o", estimatedInputTokens: 10 }),
      asOwner.operator.setOrganizationPlan({ organization: org.id, planSlug: "business" }),
      asOwner.operator.pinSubscription({ organization: org.id, version: 1 }),
      asOwner.operator.listOverrides({ organization: org.id }),
      asOwner.operator.setOverride({
        organization: org.id,
        featureKey: "failover_tuning",
        value: true,
        reason: "x",
      }),
      asOwner.operator.clearOverride({ organization: org.id, featureKey: "failover_tuning" }),
      asOwner.operator.projectEntitlements({ projectId: project.id }),
      asOwner.operator.listUsers(),
      asOwner.operator.setOperatorRole({ user: owner.userId, isOperator: true }),
    ];
    for (const call of calls) expect(await codeOf(call)).toBe("FORBIDDEN");
    expect(await deps.db.plan.findUnique({ where: { slug: "sneaky" } })).toBeNull();
    expect(
      (await deps.db.subscription.findUniqueOrThrow({ where: { organizationId: org.id } }))
        .pinnedPlanVersionId,
    ).toBeNull();

    // Its members read "why this value" for their own project (read-only).
    const why = await asOwner.project.entitlements({ projectId: project.id });
    expect(why.failoverDirective).toEqual({ version: "1", failover_tuning_allowed: false });
    expect(why.features.find((f) => f.key === "failover_tuning")).toMatchObject({
      layer: "plan",
      decidedBy: expect.stringContaining("Free"),
    });
  });

  it("an operator changes a plan and an override; bad input comes back with field errors", async () => {
    const op = await signUp("Opal");
    await makeOperator(op.userId);
    const asOp = await op.caller();
    const member = await signUp("Mia");
    const asMember = await member.caller();
    const org = await asMember.organization.create({ name: "Member Org" });
    const project = await asMember.project.create({ name: "api" });

    await asOp.operator.setOrganizationPlan({ organization: org.slug, planSlug: "team" });
    await asOp.operator.setOverride({
      projectId: project.id,
      featureKey: "failover_tuning",
      value: false,
      reason: "incident 42",
    });
    const why = await asMember.project.entitlements({ projectId: project.id });
    expect(why.features.find((f) => f.key === "failover_tuning")).toMatchObject({
      value: false,
      layer: "project_override",
      reason: "incident 42",
    });
    const audit = await deps.db.auditEvent.findFirstOrThrow({
      where: { organizationId: org.id, action: "entitlement_override.set" },
    });
    expect(audit).toMatchObject({ actorType: "operator", actorId: op.userId });

    const err = await asOp.operator
      .setOverride({
        projectId: project.id,
        featureKey: "failover_tuning",
        value: true,
        reason: "later",
        expiresAt: new Date(Date.now() - 1000),
      })
      .then(
        () => null,
        (e: unknown) => e as { code: string; message: string; cause: unknown },
      );
    expect(err).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("past") });
    expect(fieldErrorsOf(err?.cause)).toEqual({ expiresAt: "The expiry is in the past" });
    const orgs = (await asOp.operator.listOrganizations({ search: org.slug })).items;
    expect(orgs.find((o) => o.id === org.id)).toMatchObject({ plan: { slug: "team" }, memberCount: 1 });
  });
});
