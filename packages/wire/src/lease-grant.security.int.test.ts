import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Harness, post, startHarness } from "./testing/harness";
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

const READ_ONLY = '{"detail":{"code":"read_only_key","message":"read-only project key cannot write"}}';

describe("lease endpoints: keys and tenants", () => {
  it("no key or a bad key → 401; a read-only key → 403 read_only_key on all three", async () => {
    const t = await createTenant(h);
    const id = leaseAnswer((await post(h, LEASE, grantBody(), t.key)).text).lease_id!;
    for (const [path, body] of [
      [LEASE, grantBody()],
      [RENEW, renewBody(id, 1)],
      [SURRENDER, surrenderBody(id, 1)],
    ] as const) {
      expect((await post(h, path, body, null)).status).toBe(401);
      expect((await post(h, path, body, `sk_proj_${"0".repeat(64)}`)).text).toBe(
        '{"detail":"Invalid API key"}',
      );
      const ro = await post(h, path, body, t.readOnlyKey);
      expect(ro.status).toBe(403);
      expect(ro.text).toBe(READ_ONLY);
    }
    // The read-only attempts changed nothing: the lease renews from generation 1.
    expect(leaseAnswer((await post(h, RENEW, renewBody(id, 1), t.key)).text).generation).toBe(2);
  });

  it("another project's key cannot renew or surrender a lease: 404, and the lease is untouched", async () => {
    const owner = await createTenant(h);
    const other = await createTenant(h);
    const id = leaseAnswer((await post(h, LEASE, grantBody(), owner.key)).text).lease_id!;
    const r = await post(h, RENEW, renewBody(id, 1), other.key);
    expect(r.status).toBe(404);
    expect(r.text).toBe('{"detail":{"code":"lease_not_found","message":"Budget lease not found"}}');
    const s = await post(h, SURRENDER, surrenderBody(id, 1), other.key);
    expect(s.status).toBe(404);
    const c = await post(
      h,
      "/api/v1/budgets/confirm",
      { lease_id: id, model: "gpt-5.5", provider: "openai", call_id: crypto.randomUUID(), token_details: {} },
      other.key,
    );
    expect(c.status).toBe(404);
    // Another holder of the same project is not the lease's holder either.
    expect((await post(h, RENEW, renewBody(id, 1, { holder_id: "intruder" }), owner.key)).status).toBe(404);
    expect(leaseAnswer((await post(h, RENEW, renewBody(id, 1), owner.key)).text).generation).toBe(2);
  });
});
