import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createManageTenant,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h, "business");
});
afterAll(async () => {
  await h?.close();
});

const countNamed = (name: string) =>
  h.db.project.count({ where: { organizationId: t.organizationId, name, archivedAt: null } });

describe("Idempotency-Key", () => {
  it("the same POST twice creates one project and answers the same body", async () => {
    const opts = {
      key: t.write,
      body: { name: "idem-once" },
      headers: { "idempotency-key": "create-idem-once" },
    };
    const first = await call(h, "POST", "/projects", opts);
    const second = await call(h, "POST", "/projects", opts);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await countNamed("idem-once")).toBe(1);
  });

  it("concurrent retries with one key create one project", async () => {
    const opts = { key: t.write, body: { name: "idem-race" }, headers: { "idempotency-key": "race-1" } };
    const answers = await Promise.all([1, 2, 3].map(() => call(h, "POST", "/projects", opts)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 201)) problemOf(a, 409, "idempotency-key-in-use");
    for (const a of created) expect(a.text).toBe(created[0]!.text);
    expect(await countNamed("idem-race")).toBe(1);
  });

  it("the same key with another body is 422 and creates nothing", async () => {
    const headers = { "idempotency-key": "reuse-me" };
    expect(
      (await call(h, "POST", "/projects", { key: t.write, body: { name: "idem-a" }, headers })).status,
    ).toBe(201);
    const other = await call(h, "POST", "/projects", { key: t.write, body: { name: "idem-b" }, headers });
    problemOf(other, 422, "idempotency-key-reused");
    expect(await countNamed("idem-b")).toBe(0);
  });

  it("a refused request is replayed as refused; a malformed key is 400", async () => {
    const headers = { "idempotency-key": "bad-body" };
    const a = await call(h, "POST", "/projects", { key: t.write, body: { name: "" }, headers });
    const b = await call(h, "POST", "/projects", { key: t.write, body: { name: "" }, headers });
    problemOf(a, 422, "validation-failed");
    expect(b.text).toBe(a.text);
    const bad = await call(h, "POST", "/projects", {
      key: t.write,
      body: { name: "x" },
      headers: { "idempotency-key": "has spaces" },
    });
    problemOf(bad, 400, "bad-request");
  });

  it("keys are per management key: another key's same Idempotency-Key is its own request", async () => {
    const other = await createManageTenant(h);
    const headers = { "idempotency-key": "shared-name" };
    const mine = await call(h, "POST", "/projects", { key: t.write, body: { name: "mine" }, headers });
    const theirs = await call(h, "POST", "/projects", {
      key: other.write,
      body: { name: "theirs" },
      headers,
    });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.json.organizationId).toBe(other.organizationId);
  });
});

describe("rate limit per key", () => {
  it("past the limit: 429 with Retry-After and RateLimit-Remaining 0; other keys unaffected", async () => {
    const limited = await startManageHarness({ rateLimit: { window: 60, max: 3 } });
    try {
      const own = await createManageTenant(limited);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await call(limited, "GET", "/projects", { key: own.read }));
      expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
      const refused = answers[3]!;
      problemOf(refused, 429, "rate-limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect((await call(limited, "GET", "/projects", { key: own.write })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("last used", () => {
  it("a key's last-used time is recorded", async () => {
    const own = await createManageTenant(h);
    const before = await h.db.managementKey.findUniqueOrThrow({ where: { id: own.writeKeyId } });
    expect(before.lastUsedAt).toBeNull();
    await call(h, "GET", "/projects", { key: own.write });
    await h.runtime.flushUsage();
    const after = await h.db.managementKey.findUniqueOrThrow({ where: { id: own.writeKeyId } });
    expect(after.lastUsedAt).not.toBeNull();
  });
});

describe("the OpenAPI document", () => {
  it("is served without a key", async () => {
    const r = await call(h, "GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
  });
});
