import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM, createTenant, type Harness, post, startHarness, type Tenant } from "./testing/harness";
import {
  grantBody,
  LEASE,
  leaseAnswer,
  RENEW,
  renewBody,
  SURRENDER,
  surrenderBody,
} from "./testing/lease-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function leased(t: Tenant, extra: Record<string, unknown> = {}) {
  const a = leaseAnswer((await post(h, LEASE, grantBody(extra), t.key)).text);
  return a.lease_id!;
}

describe("POST /api/v1/budgets/lease/renew and /surrender", () => {
  it("renews to generation 2 under the same id and replays that answer byte for byte", async () => {
    const t = await createTenant(h);
    const id = await leased(t);
    const r2 = await post(h, RENEW, renewBody(id, 1, { spent_tokens: 500 }), t.key);
    expect(r2.status).toBe(200);
    expect(leaseAnswer(r2.text)).toMatchObject({ lease_id: id, generation: 2, allowed: true });
    const replay = await post(h, RENEW, renewBody(id, 1, { spent_tokens: 500 }), t.key);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(r2.text);
    const stale = await post(h, RENEW, renewBody(id, 5), t.key);
    expect(stale.status).toBe(409);
    expect(stale.text).toBe(
      '{"detail":{"code":"lease_generation_conflict","message":"Budget lease generation conflict"}}',
    );
  });

  it("concurrent renewals of one generation: exactly one successor, the others replay it or 409", async () => {
    const t = await createTenant(h);
    const id = await leased(t);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(h, RENEW, renewBody(id, 1, { spent_tokens: 10 }), t.key)),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.text)).size).toBe(1);
    expect(leaseAnswer(ok[0]!.text).generation).toBe(2);
    for (const r of results) expect([200, 409]).toContain(r.status);
    const next = await post(h, RENEW, renewBody(id, 2), t.key);
    expect(leaseAnswer(next.text).generation).toBe(3);
  });

  it("unions a re-declared chain; an unpriceable one ends the lease as ineligible", async () => {
    const t = await createTenant(h, { limits: { monthly: 1 } });
    const first = leaseAnswer((await post(h, LEASE, grantBody({ model: "gpt-4o-mini" }), t.key)).text);
    const id = first.lease_id!;
    const r = await post(
      h,
      RENEW,
      renewBody(id, 1, {
        model: "gpt-4o",
        provider: "openai",
        fallback_providers: ["anthropic"],
        fallback_models: ["claude-fable-5-1"],
      }),
      t.key,
    );
    expect(r.status).toBe(200);
    const a = leaseAnswer(r.text);
    expect(a).toMatchObject({ eligible: true, allowed: true, generation: 2 });
    // The dearer chain buys fewer tokens than the first grant did.
    expect(a.granted_tokens!).toBeLessThan(first.granted_tokens!);
    const unknown = await post(
      h,
      RENEW,
      renewBody(id, 2, { model: "no-such-model-for-leases", provider: "openai" }),
      t.key,
    );
    expect(leaseAnswer(unknown.text)).toMatchObject({
      eligible: false,
      ineligible_reason: "zero_rate_model",
    });
  });

  it("confirm with lease_id → 204 (replays too); surrender releases the claim once", async () => {
    const t = await createTenant(h);
    const id = await leased(t);
    const confirm = {
      lease_id: id,
      model: "gpt-5.5",
      provider: "openai",
      call_id: crypto.randomUUID(),
      token_details: { input_tokens: 100, output_tokens: 50 },
    };
    expect((await post(h, CONFIRM, confirm, t.key)).status).toBe(204);
    expect((await post(h, CONFIRM, confirm, t.key)).status).toBe(204);
    const s1 = await post(h, SURRENDER, surrenderBody(id, 1, 150), t.key);
    expect(s1.status).toBe(200);
    const released = (s1.json() as { released_tokens: number }).released_tokens;
    expect(released).toBeGreaterThan(0);
    expect(Object.keys(s1.json() as object)).toEqual(["released_tokens"]);
    const s2 = await post(h, SURRENDER, surrenderBody(id, 1, 150), t.key);
    expect(s2.status).toBe(200);
    expect(s2.text).toBe('{"released_tokens":0}');
    // A surrendered lease is gone for renewals.
    expect((await post(h, RENEW, renewBody(id, 1), t.key)).status).toBe(404);
  });
});
