import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Harness, post, startHarness } from "./testing/harness";
import { grantBody, LEASE, RENEW, renewBody, SURRENDER, surrenderBody } from "./testing/lease-fixtures";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const NOT_FOUND = '{"detail":{"code":"lease_not_found","message":"Budget lease not found"}}';

describe("lease endpoints: bad input and refusals", () => {
  it("strict schemas: an unknown field, a bad type, misaligned fallbacks, invalid JSON → 422 envelope", async () => {
    const t = await createTenant(h);
    const cases: [string, unknown][] = [
      [LEASE, grantBody({ surprise: 1 })],
      [LEASE, grantBody({ agent_run_id: "" })],
      [LEASE, grantBody({ holder_id: "x".repeat(65) })],
      [LEASE, grantBody({ provider: "nope" })],
      [LEASE, grantBody({ fallback_providers: ["openai"], fallback_models: [] })],
      [RENEW, renewBody("lse_x", 0)],
      [RENEW, { ...renewBody("lse_x", 1), extra: true }],
      [RENEW, renewBody("lse_x", 1, { spent_tokens: -1 })],
      [SURRENDER, { lease_id: "lse_x", holder_id: "h" }],
      [SURRENDER, { ...surrenderBody("lse_x", 1), reserved_tokens: 0 }],
    ];
    for (const [path, body] of cases) {
      const r = await post(h, path, body, t.key);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      const items = (r.json() as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
      expect(items.length).toBeGreaterThan(0);
      expect(items[0]!.loc[0]).toBe("body");
    }
    const bad = await post(h, LEASE, "{", t.key, { raw: true });
    expect(bad.status).toBe(422);
    expect((bad.json() as { detail: { type: string }[] }).detail[0]!.type).toBe("json_invalid");
  });

  it("unknown lease → 404 lease_not_found on renew and surrender", async () => {
    const t = await createTenant(h);
    const r = await post(h, RENEW, renewBody("lse_000000000000000000000000", 1), t.key);
    expect(r.status).toBe(404);
    expect(r.text).toBe(NOT_FOUND);
    const s = await post(h, SURRENDER, surrenderBody("lse_000000000000000000000000", 1), t.key);
    expect(s.status).toBe(404);
    expect(s.text).toBe(NOT_FOUND);
  });

  it("too many holders on one run → 409 lease_holder_cap_exceeded", async () => {
    const t = await createTenant(h, { limits: { monthly: 100_000 } });
    for (let i = 0; i < 16; i++) {
      expect((await post(h, LEASE, grantBody({ holder_id: `h-${i}` }), t.key)).status).toBe(200);
    }
    const r = await post(h, LEASE, grantBody({ holder_id: "h-16" }), t.key);
    expect(r.status).toBe(409);
    expect(r.text).toBe(
      '{"detail":{"code":"lease_holder_cap_exceeded","message":"Active lease holder limit exceeded"}}',
    );
  });

  it("lease store down → fast 503 lease_unavailable", async () => {
    const t = await createTenant(h);
    const down = await startHarness({ REDIS_URL: "redis://127.0.0.1:3499/1" });
    try {
      const started = Date.now();
      for (const [path, body] of [
        [LEASE, grantBody()],
        [RENEW, renewBody("lse_000000000000000000000000", 1)],
        [SURRENDER, surrenderBody("lse_000000000000000000000000", 1)],
      ] as const) {
        const r = await post(down, path, body, t.key);
        expect(r.status).toBe(503);
        expect(r.text).toBe(
          '{"detail":{"code":"lease_unavailable","message":"Budget lease service temporarily unavailable; retry"}}',
        );
      }
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await down.close();
    }
  });
});
