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

describe("projects: refused input is problem+json, never a 500", () => {
  it("invalid fields answer 422 with a pointer per field", async () => {
    const r = await call(h, "POST", "/projects", {
      key: t.write,
      body: { name: "", mode: "sometimes", limits: { daily: -1 } },
    });
    const p = problemOf(r, 422, "validation-failed");
    const pointers = p.errors!.map((e) => e.pointer).sort();
    expect(pointers).toEqual(["/limits/daily", "/mode", "/name"]);
    for (const e of p.errors!) expect(typeof e.detail).toBe("string");
  });

  it("a missing body, a non-object and text Postgres cannot store are 422", async () => {
    problemOf(await call(h, "POST", "/projects", { key: t.write }), 422, "validation-failed");
    problemOf(await call(h, "POST", "/projects", { key: t.write, body: [1, 2] }), 422, "validation-failed");
    const nul = problemOf(
      await call(h, "POST", "/projects", { key: t.write, body: { name: "a\u0000b" } }),
      422,
      "validation-failed",
    );
    expect(nul.errors).toEqual([{ pointer: "/name", detail: expect.any(String) }]);
    const lone = await call(h, "POST", "/projects", { key: t.write, raw: '{"name":"\\ud800"}' });
    problemOf(lone, 422, "validation-failed");
    const rename = await call(h, "PATCH", `/projects/${t.projectId}`, {
      key: t.write,
      body: { name: "x".repeat(101) },
    });
    expect(problemOf(rename, 422, "validation-failed").errors![0]!.pointer).toBe("/name");
  });

  it("bad JSON is 400, another media type 415, an oversized body 413", async () => {
    problemOf(await call(h, "POST", "/projects", { key: t.write, raw: "{nope" }), 400, "invalid-json");
    problemOf(await call(h, "POST", "/projects", { key: t.write, raw: "\xff" }), 400, "invalid-json");
    problemOf(
      await call(h, "POST", "/projects", {
        key: t.write,
        raw: "name=x",
        headers: { "content-type": "text/plain" },
      }),
      415,
      "unsupported-media-type",
    );
    const big = JSON.stringify({ name: "x".repeat(70_000) });
    problemOf(await call(h, "POST", "/projects", { key: t.write, raw: big }), 413, "payload-too-large");
  });

  it("bad list parameters are 422 naming the parameter", async () => {
    for (const q of ["limit=0", "limit=101", "limit=two"]) {
      const p = problemOf(await call(h, "GET", `/projects?${q}`, { key: t.read }), 422, "validation-failed");
      expect(p.errors).toEqual([{ parameter: "limit", detail: expect.any(String) }]);
    }
    const p = problemOf(
      await call(h, "GET", "/projects?starting_after=proj_nope", { key: t.read }),
      422,
      "validation-failed",
    );
    expect(p.errors).toEqual([{ parameter: "starting_after", detail: expect.any(String) }]);
  });

  it("unknown paths are 404, known paths with another method 405, unknown ids 404", async () => {
    problemOf(await call(h, "GET", "/nothing-here", { key: t.read }), 404, "not-found");
    problemOf(await call(h, "PUT", "/projects", { key: t.write, body: {} }), 405, "method-not-allowed");
    problemOf(
      await call(h, "GET", "/projects/proj_000000000000000000000000", { key: t.read }),
      404,
      "not-found",
    );
    problemOf(await call(h, "GET", "/projects/%E0%A4%A", { key: t.read }), 404, "not-found");
  });

  it("a plan's project limit is a 409 plan-limit", async () => {
    const free = await createManageTenant(h, "free"); // free allows 1 project, and it has one
    const p = problemOf(
      await call(h, "POST", "/projects", { key: free.write, body: { name: "second" } }),
      409,
      "plan-limit",
    );
    expect(p.detail).toMatch(/plan allows 1 project/);
  });
});
