import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEventResource, listOf } from "./schemas";
import {
  call,
  createManageTenant,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  shapeOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
let other: ManageTenant;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h, "business");
  other = await createManageTenant(h, "business");
  for (const name of ["a", "b", "c"]) await call(h, "POST", "/projects", { key: t.write, body: { name } });
  await call(h, "POST", "/projects", { key: other.write, body: { name: "theirs" } });
});
afterAll(async () => {
  await h?.close();
});

describe("audit events: happy", () => {
  it("newest first, the key's writes named by the key, paged by starting_after", async () => {
    const first = shapeOf(
      listOf(auditEventResource),
      await call(h, "GET", "/audit-events?kind=project&limit=2", { key: t.write }),
    );
    expect(first.has_more).toBe(true);
    expect(first.data.map((e) => e.action)).toEqual(["project.create", "project.create"]);
    expect(first.data[0]!.actor).toEqual({
      type: "management_key",
      id: t.writeKeyId,
      name: "ci write",
      email: null,
    });
    const rest = shapeOf(
      listOf(auditEventResource),
      await call(h, "GET", `/audit-events?kind=project&limit=10&starting_after=${first.data[1]!.id}`, {
        key: t.write,
      }),
    );
    const names = [...first.data, ...rest.data].map((e) => (e.after as { name?: string } | null)?.name);
    expect(names).toEqual(["c", "b", "a", "service"]);
    expect(rest.has_more).toBe(false);
  });
});

describe("audit events: error", () => {
  it("bad parameters are 422 naming them", async () => {
    const kind = problemOf(
      await call(h, "GET", "/audit-events?kind=Project!", { key: t.write }),
      422,
      "validation-failed",
    );
    expect(kind.errors).toEqual([{ parameter: "kind", detail: expect.any(String) }]);
    const from = problemOf(
      await call(h, "GET", "/audit-events?from=yesterday", { key: t.write }),
      422,
      "validation-failed",
    );
    expect(from.errors).toEqual([{ parameter: "from", detail: expect.any(String) }]);
    const cursor = problemOf(
      await call(h, "GET", "/audit-events?starting_after=aud_nope", { key: t.write }),
      422,
      "validation-failed",
    );
    expect(cursor.errors).toEqual([{ parameter: "starting_after", detail: expect.any(String) }]);
  });
});

describe("audit events: security", () => {
  it("only the key's organization's events; another organization's event id is no cursor here", async () => {
    const mine = shapeOf(
      listOf(auditEventResource),
      await call(h, "GET", "/audit-events?limit=100", { key: t.write }),
    );
    expect(mine.data.some((e) => (e.after as { name?: string } | null)?.name === "theirs")).toBe(false);
    const theirs = shapeOf(
      listOf(auditEventResource),
      await call(h, "GET", "/audit-events", { key: other.write }),
    );
    problemOf(
      await call(h, "GET", `/audit-events?starting_after=${theirs.data[0]!.id}`, { key: t.write }),
      422,
      "validation-failed",
    );
  });

  it("a read key is 403 (admins only, as in the dashboard); an SDK key 401", async () => {
    problemOf(await call(h, "GET", "/audit-events", { key: t.read }), 403, "forbidden");
    problemOf(await call(h, "GET", "/audit-events", { key: t.sdkKey }), 401, "unauthorized");
  });
});
