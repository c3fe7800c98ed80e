import { invalidateEntitlements, newId } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK,
  checkBody,
  createTenant,
  event,
  type Harness,
  INGEST,
  keys,
  post,
  startHarness,
  within,
} from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("budget check answers", () => {
  it("allow with every opt-in: exact key set, float amounts, hints, directive", async () => {
    const t = await createTenant(h, { plan: "team" });
    const r = await post(
      h,
      CHECK,
      checkBody({ fallback_providers: ["anthropic"], fallback_models: ["claude-sonnet-5"] }),
      t.key,
    );
    expect(r.status).toBe(200);
    const body = r.json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    expect(body.allowed).toBe(true);
    expect(body.project_id).toBe(t.projectId);
    expect(body.reservation_id).toMatch(/^res_/);
    expect(body.failover_directive).toEqual({ version: "1", failover_tuning_allowed: true });
    expect(r.text).toContain('"budget_limit":100.0');
    const hints = body.price_hints as Record<string, number>;
    expect(hints.anthropic).toBe(1);
    expect(hints.openai).toBeGreaterThan(1);
  });

  it("legacy request (no opt-in): explicit nulls for the five optional keys", async () => {
    const t = await createTenant(h);
    const r = await post(
      h,
      CHECK,
      { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai" },
      t.key,
    );
    const body = r.json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
      "run_control",
    ]);
    expect(body.denied_by_period).toBeNull();
    expect(body.price_hints).toBeNull();
    expect(body.failover_directive).toBeNull();
    expect(body.run_control).toBeNull();
  });

  it("price_hints_version alone keeps the legacy nulls; run_directive_version alone has no failover_directive key", async () => {
    const t = await createTenant(h);
    const hintsOnly = (
      await post(
        h,
        CHECK,
        { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai", price_hints_version: "1" },
        t.key,
      )
    ).json() as Record<string, unknown>;
    expect(hintsOnly.failover_directive).toBeNull();
    expect(hintsOnly.price_hints).toEqual({ openai: 1 });
    const runOnly = (
      await post(
        h,
        CHECK,
        { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai", run_directive_version: "1" },
        t.key,
      )
    ).json() as Record<string, unknown>;
    expect(keys(runOnly)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "project_id",
    ]);
  });

  it("hard deny: no reservation_id key, denied_by_period set, mode hard_deny", async () => {
    const t = await createTenant(h, { mode: "hard_deny", limits: { monthly: 0.000001 } });
    const body = (await post(h, CHECK, checkBody(), t.key)).json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    expect(body).toMatchObject({ allowed: false, mode: "hard_deny", denied_by_period: "monthly" });
    const legacy = (
      await post(h, CHECK, { estimated_input_tokens: 1000, model: "gpt-5.5", provider: "openai" }, t.key)
    ).json() as Record<string, unknown>;
    expect(legacy.reservation_id).toBeNull();
    expect(legacy.denied_by_period).toBe("monthly");
  });

  it("alert-only deny: allowed false, mode alert_only", async () => {
    const t = await createTenant(h, { mode: "alert_only", limits: { daily: 0.000001 } });
    const body = (await post(h, CHECK, checkBody(), t.key)).json() as Record<string, unknown>;
    expect(body).toMatchObject({ allowed: false, mode: "alert_only", denied_by_period: "daily" });
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
  });

  it("stopped run: run_stopped, hard_deny on an alert_only project, remaining 0, run_control only with the opt-in", async () => {
    const t = await createTenant(h, { mode: "alert_only" });
    const runId = `stopped-${newId("res")}`;
    await h.db.agentRun.create({
      data: { projectId: t.projectId, agentRunId: runId, stoppedAt: new Date(), stopReason: "manual_kill" },
    });
    const r = await post(h, CHECK, checkBody({ agent_run_id: runId }), t.key);
    const body = r.json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
      "run_control",
    ]);
    expect(body).toMatchObject({
      allowed: false,
      mode: "hard_deny",
      denied_by_period: "run_stopped",
      remaining_budget: 0,
    });
    expect(r.text).toContain('"remaining_budget":0.0');
    expect(body.run_control).toEqual({
      version: "1",
      action: "terminate",
      agent_run_id: runId,
      reason: "manual_kill",
    });
    const noOptIn = (
      await post(h, CHECK, checkBody({ agent_run_id: runId, run_directive_version: undefined }), t.key)
    ).json();
    expect(keys(noOptIn)).not.toContain("run_control");
    const other = (
      await post(h, CHECK, checkBody({ agent_run_id: `${runId}-other` }), t.key)
    ).json() as Record<string, unknown>;
    expect(other.allowed).toBe(true);
    expect(keys(other)).not.toContain("run_control");
  });

  it("tag rule: only checks whose tags match are denied with 'tag'", async () => {
    const t = await createTenant(h, { mode: "hard_deny" });
    await h.db.tagRule.create({
      data: {
        id: newId("tagr"),
        projectId: t.projectId,
        name: "acme",
        selector: { customer: "acme" },
        period: "monthly",
        limitUsd: "0.000001",
      },
    });
    const denied = (await post(h, CHECK, checkBody({ tags: { customer: "acme" } }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(denied).toMatchObject({ allowed: false, denied_by_period: "tag" });
    expect(keys(denied)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    const other = (await post(h, CHECK, checkBody({ tags: { customer: "globex" } }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(other.allowed).toBe(true);
  });

  it("run spend cap: agent_run deny scoped to that run", async () => {
    const t = await createTenant(h, { mode: "hard_deny" });
    await h.db.project.update({ where: { id: t.projectId }, data: { runSpendCapUsd: "0.05" } });
    // A first check builds the counters; an ingested $1 call then burns the run's cap.
    expect(
      ((await post(h, CHECK, checkBody({ agent_run_id: "runaway" }), t.key)).json() as { allowed: boolean })
        .allowed,
    ).toBe(true);
    const burn = event({
      agent_run_id: "runaway",
      input_tokens: 200_000,
      output_tokens: 0,
      token_details: { input_tokens: 200_000 },
    });
    expect((await post(h, INGEST, [burn], t.key)).status).toBe(202);
    const denied = (await post(h, CHECK, checkBody({ agent_run_id: "runaway" }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(denied).toMatchObject({ allowed: false, mode: "hard_deny", denied_by_period: "agent_run" });
    expect(keys(denied)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    const otherRun = (await post(h, CHECK, checkBody({ agent_run_id: "fresh-run" }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(otherRun.allowed).toBe(true);
  });

  it("an unknown model is allowed without a reservation (never a 4xx)", async () => {
    const t = await createTenant(h);
    const r = await post(h, CHECK, checkBody({ model: "no-such-model-anywhere" }), t.key);
    expect(r.status).toBe(200);
    const body = r.json() as Record<string, unknown>;
    expect(body.allowed).toBe(true);
    expect(keys(body)).not.toContain("reservation_id");
    expect(body.price_hints).toEqual({});
  });

  it("price hints: local lane, unpriced model, same-provider fallback, long context", async () => {
    const t = await createTenant(h);
    const hints = async (extra: Record<string, unknown>) =>
      ((await post(h, CHECK, checkBody(extra), t.key)).json() as { price_hints: Record<string, number> })
        .price_hints;
    expect(await hints({ fallback_providers: ["ollama"], fallback_models: ["llama3:8b"] })).toEqual({
      openai: 1,
      ollama: 0,
    });
    expect(await hints({ fallback_providers: ["anthropic"], fallback_models: ["no-such-claude"] })).toEqual({
      openai: 1,
    });
    // The primary provider's number comes from the primary model: a cheaper same-provider fallback changes nothing.
    expect(
      await hints({
        fallback_providers: ["openai", "anthropic"],
        fallback_models: ["gpt-4o-mini", "claude-sonnet-5"],
      }),
    ).toEqual(await hints({ fallback_providers: ["anthropic"], fallback_models: ["claude-sonnet-5"] }));
    const short = await hints({ fallback_providers: ["anthropic"], fallback_models: ["claude-sonnet-5"] });
    const long = await hints({
      estimated_input_tokens: 300_000,
      fallback_providers: ["anthropic"],
      fallback_models: ["claude-sonnet-5"],
    });
    expect(long.openai!).toBeGreaterThan(short.openai!);
  });

  it("the failover directive flips within a second of a plan override", async () => {
    const t = await createTenant(h, { plan: "free" });
    const allowed = async () =>
      (
        (await post(h, CHECK, checkBody(), t.key)).json() as {
          failover_directive: { failover_tuning_allowed: boolean };
        }
      ).failover_directive.failover_tuning_allowed;
    expect(await allowed()).toBe(false);
    await h.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: t.organizationId,
        projectId: t.projectId,
        featureKey: "failover_tuning",
        value: true,
        reason: "trial",
      },
    });
    await invalidateEntitlements({ config: h.config }, { projectId: t.projectId });
    expect(await within(1000, allowed)).toBeLessThan(1000);
  });

  it("the failover directive flips within a second of a plan change", async () => {
    const t = await createTenant(h, { plan: "free" });
    const allowed = async () =>
      (
        (await post(h, CHECK, checkBody(), t.key)).json() as {
          failover_directive: { failover_tuning_allowed: boolean };
        }
      ).failover_directive.failover_tuning_allowed;
    expect(await allowed()).toBe(false);
    const team = await h.db.plan.findUniqueOrThrow({ where: { slug: "team" } });
    await h.db.subscription.update({
      where: { organizationId: t.organizationId },
      data: { planId: team.id },
    });
    await invalidateEntitlements({ config: h.config }, { organizationId: t.organizationId });
    expect(await within(1000, allowed)).toBeLessThan(1000);
  });
});

describe("Next.js mount", () => {
  it("the fetch-style handlers give the same answers as the lean server", async () => {
    const t = await createTenant(h);
    const req = new Request("http://localhost/api/v1/budgets/check", {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify(checkBody()),
    });
    const res = await h.runtime.fetch("check")(req);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(keys(await res.json())).toContain("failover_directive");
    const health = await h.runtime.fetch("dispatch")(new Request("http://localhost/health"));
    expect(await health.text()).toBe('{"status":"ok"}');
  });
});
