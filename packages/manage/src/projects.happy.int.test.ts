import { listAuditEvents } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOf, projectResource } from "./schemas";
import {
  call,
  createManageTenant,
  type ManageHarness,
  type ManageTenant,
  shapeOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

describe("projects", () => {
  it("create, read, rename, list and delete with a write key", async () => {
    const created = await call(h, "POST", "/projects", {
      key: t.write,
      body: { name: "payments", mode: "hard_deny", limits: { daily: 5, monthly: 100 } },
    });
    expect(created.status).toBe(201);
    const p = shapeOf(projectResource, created);
    expect(p).toMatchObject({
      organizationId: t.organizationId,
      name: "payments",
      mode: "hard_deny",
      limits: { daily: 5, weekly: null, monthly: 100 },
    });

    const read = await call(h, "GET", `/projects/${p.id}`, { key: t.read });
    expect(read.status).toBe(200);
    expect(shapeOf(projectResource, read)).toEqual(p);

    const renamed = await call(h, "PATCH", `/projects/${p.id}`, {
      key: t.write,
      body: { name: "payments-eu" },
    });
    expect(renamed.status).toBe(200);
    expect(shapeOf(projectResource, renamed).name).toBe("payments-eu");

    const list = shapeOf(listOf(projectResource), await call(h, "GET", "/projects", { key: t.read }));
    expect(list.data.map((x) => x.id)).toEqual([t.projectId, p.id]);
    expect(list.has_more).toBe(false);

    const deleted = await call(h, "DELETE", `/projects/${p.id}`, { key: t.write });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await call(h, "GET", `/projects/${p.id}`, { key: t.read })).status).toBe(404);
    const after = shapeOf(listOf(projectResource), await call(h, "GET", "/projects", { key: t.read }));
    expect(after.data.map((x) => x.id)).toEqual([t.projectId]);
  });

  it("pages with limit and starting_after, in creation order", async () => {
    const own = await createManageTenant(h, "business");
    const ids = [own.projectId];
    for (const name of ["a", "b", "c", "d"]) {
      const r = await call(h, "POST", "/projects", { key: own.write, body: { name } });
      ids.push(shapeOf(projectResource, r).id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const q = cursor ? `?limit=2&starting_after=${cursor}` : "?limit=2";
      const page = shapeOf(listOf(projectResource), await call(h, "GET", `/projects${q}`, { key: own.read }));
      pages++;
      seen.push(...page.data.map((x) => x.id));
      if (!page.has_more) break;
      cursor = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
  });

  it("every write names the management key in the audit log", async () => {
    const r = await call(h, "POST", "/projects", { key: t.write, body: { name: "audited" } });
    const id = shapeOf(projectResource, r).id;
    const page = await listAuditEvents({ ...h.sys, organizationId: t.organizationId }, { kind: "project" });
    const event = page.events.find((e) => e.targetId === id && e.action === "project.create");
    expect(event?.actor).toMatchObject({ type: "management_key", id: t.writeKeyId, name: "ci write" });
  });

  it("answers rate-limit headers on every authenticated answer", async () => {
    const r = await call(h, "GET", "/projects", { key: t.read });
    expect(Number(r.headers.get("ratelimit-limit"))).toBe(h.config.MANAGE_API_RATE_LIMIT);
    expect(Number(r.headers.get("ratelimit-remaining"))).toBeLessThan(h.config.MANAGE_API_RATE_LIMIT);
    expect(Number(r.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  });
});
