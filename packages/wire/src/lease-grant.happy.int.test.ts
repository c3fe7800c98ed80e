import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Harness, post, startHarness } from "./testing/harness";
import { grantBody, LEASE, leaseAnswer } from "./testing/lease-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("POST /api/v1/budgets/lease", () => {
  it("grants: all eight lease keys, the budget amounts, nothing else", async () => {
    const t = await createTenant(h, { mode: "hard_deny", limits: { monthly: 100 } });
    const r = await post(h, LEASE, grantBody({ fail_open: false }), t.key);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    const a = leaseAnswer(r.text);
    expect(Object.keys(a)).toEqual([
      "eligible",
      "allowed",
      "lease_id",
      "generation",
      "granted_tokens",
      "refresh_interval_s",
      "lease_length_s",
      "headroom_share_tokens",
      "posture",
      "final_grant",
      "project_id",
      "mode",
      "budget_limit",
      "current_usage",
      "remaining_budget",
    ]);
    expect(a).toMatchObject({
      eligible: true,
      allowed: true,
      generation: 1,
      posture: { mode: "hard_deny", on_unreachable: "local_enforce" },
      final_grant: false,
      project_id: t.projectId,
      mode: "hard_deny",
      budget_limit: 100,
    });
    expect(a.lease_id).toMatch(/^lse_[0-9a-f]{24}$/);
    expect(a.granted_tokens).toBeGreaterThan(0);
    expect(a.refresh_interval_s!).toBeLessThan(a.lease_length_s!);
  });

  it("answers ineligible (no lease keys) for the SDK's contract probe model", async () => {
    const t = await createTenant(h);
    const r = await post(h, LEASE, grantBody({ model: "no-such-model-for-leases" }), t.key);
    expect(r.status).toBe(200);
    const a = leaseAnswer(r.text);
    expect(a).toEqual({
      eligible: false,
      allowed: true,
      ineligible_reason: "zero_rate_model",
      project_id: t.projectId,
      mode: "alert_only",
      budget_limit: 100,
      current_usage: 0,
      remaining_budget: 100,
    });
  });

  it("denies a hard_deny project with no room, naming the period", async () => {
    const t = await createTenant(h, { mode: "hard_deny", limits: { daily: 0.0001 } });
    const a = leaseAnswer((await post(h, LEASE, grantBody(), t.key)).text);
    expect(a).toMatchObject({ eligible: true, allowed: false, denied_by_period: "daily", mode: "hard_deny" });
    expect(a.lease_id).toBeUndefined();
  });

  it("is served by the Next.js mount too (the dashboard's /api/v1)", async () => {
    const t = await createTenant(h);
    const res = await h.runtime.fetch("dispatch")(
      new Request(`http://localhost${LEASE}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
        body: JSON.stringify(grantBody()),
      }),
    );
    expect(res.status).toBe(200);
    expect(leaseAnswer(await res.text()).allowed).toBe(true);
    const unknown = await h.runtime.fetch("dispatch")(new Request("http://localhost/api/v1/nope"));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('{"detail":"Not Found"}');
  });
});
