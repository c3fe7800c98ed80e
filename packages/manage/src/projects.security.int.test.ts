import { revokeManagementKey } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createManageTenant,
  createOperatorKey,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
let other: ManageTenant;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h);
  other = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

describe("projects: who may do what", () => {
  it("no key, an SDK key, a malformed or made-up key: 401 with a Bearer challenge", async () => {
    const keys = [null, t.sdkKey, "sk_mgmt_short", `sk_mgmt_${"a".repeat(64)}`, `SK_MGMT_${"a".repeat(64)}`];
    for (const key of keys) {
      const r = await call(h, "GET", "/projects", { key });
      problemOf(r, 401, "unauthorized");
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
    const basic = await call(h, "GET", "/projects", { headers: { authorization: `Basic ${t.read}` } });
    problemOf(basic, 401, "unauthorized");
    // Writes are refused before anything is read or written.
    problemOf(
      await call(h, "POST", "/projects", { key: t.sdkKey, body: { name: "x" } }),
      401,
      "unauthorized",
    );
  });

  it("a revoked or expired key is 401 from its next request", async () => {
    const own = await createManageTenant(h);
    expect((await call(h, "GET", "/projects", { key: own.write })).status).toBe(200);
    await revokeManagementKey({ ...h.sys, organizationId: own.organizationId }, { keyId: own.writeKeyId });
    problemOf(await call(h, "GET", "/projects", { key: own.write }), 401, "unauthorized");

    await h.db.managementKey.updateMany({
      where: { organizationId: own.organizationId, scope: "read" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    problemOf(await call(h, "GET", "/projects", { key: own.read }), 401, "unauthorized");
  });

  it("another organization's project is 404 for every method, and is left untouched", async () => {
    const id = other.projectId;
    problemOf(await call(h, "GET", `/projects/${id}`, { key: t.read }), 404, "not-found");
    problemOf(
      await call(h, "PATCH", `/projects/${id}`, { key: t.write, body: { name: "mine" } }),
      404,
      "not-found",
    );
    problemOf(await call(h, "DELETE", `/projects/${id}`, { key: t.write }), 404, "not-found");
    const mine = await call(h, "GET", "/projects", { key: t.read });
    expect(mine.json.data.map((p: { id: string }) => p.id)).not.toContain(id);
    const theirs = await call(h, "GET", `/projects/${id}`, { key: other.read });
    expect(theirs.json.name).toBe("service");
  });

  it("a read key reads, and its writes are 403", async () => {
    expect((await call(h, "GET", `/projects/${t.projectId}`, { key: t.read })).status).toBe(200);
    problemOf(await call(h, "POST", "/projects", { key: t.read, body: { name: "x" } }), 403, "forbidden");
    problemOf(
      await call(h, "PATCH", `/projects/${t.projectId}`, { key: t.read, body: { name: "x" } }),
      403,
      "forbidden",
    );
    problemOf(await call(h, "DELETE", `/projects/${t.projectId}`, { key: t.read }), 403, "forbidden");
    expect((await call(h, "GET", `/projects/${t.projectId}`, { key: t.read })).json.name).toBe("service");
  });

  it("an operator key is refused on an organization's routes; it stops when its creator stops being operator", async () => {
    const op = await createOperatorKey(h);
    problemOf(await call(h, "GET", "/projects", { key: op.key }), 403, "forbidden");
    await h.db.user.update({ where: { id: op.userId }, data: { isOperator: false } });
    problemOf(await call(h, "GET", "/projects", { key: op.key }), 401, "unauthorized");
  });
});
