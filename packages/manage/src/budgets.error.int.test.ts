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
  t = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

const valid = {
  mode: "alert_only",
  limits: { daily: null, weekly: null, monthly: 10 },
  thresholds: [],
  runSpendCapUsd: null,
};

describe("budgets: refused input", () => {
  it("a stale If-Match is 412 and writes nothing", async () => {
    const path = `/projects/${t.projectId}/budget`;
    const before = await call(h, "GET", path, { key: t.read });
    const r = await call(h, "PUT", path, { key: t.write, body: valid, headers: { "if-match": '"stale"' } });
    problemOf(r, 412, "precondition-failed");
    const after = await call(h, "GET", path, { key: t.read });
    expect(after.json).toEqual(before.json);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
  });

  it("invalid rules are 422 with a pointer per field", async () => {
    const path = `/projects/${t.projectId}/budget`;
    const noLimit = await call(h, "PUT", path, {
      key: t.write,
      body: { ...valid, limits: { daily: null, weekly: null, monthly: null } },
    });
    expect(problemOf(noLimit, 422, "validation-failed").errors).toEqual([
      { pointer: "/limits", detail: expect.any(String) },
    ]);
    const bad = await call(h, "PUT", path, {
      key: t.write,
      body: {
        mode: "alert_only",
        limits: { daily: 0, weekly: "x", monthly: 10 },
        thresholds: [5000],
        runSpendCapUsd: -1,
      },
    });
    const pointers = problemOf(bad, 422, "validation-failed")
      .errors!.map((e) => e.pointer)
      .sort();
    expect(pointers).toEqual(["/limits/daily", "/limits/weekly", "/runSpendCapUsd", "/thresholds/0"]);
    problemOf(
      await call(h, "PUT", path, { key: t.write, body: { mode: "alert_only" } }),
      422,
      "validation-failed",
    );
  });

  it("an unknown project is 404", async () => {
    problemOf(await call(h, "GET", "/projects/proj_nope/budget", { key: t.read }), 404, "not-found");
    problemOf(
      await call(h, "PUT", "/projects/proj_nope/budget", { key: t.write, body: valid }),
      404,
      "not-found",
    );
  });
});
