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
let other: ManageTenant;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h);
  other = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

const body = {
  mode: "hard_deny",
  limits: { daily: 1, weekly: null, monthly: null },
  thresholds: [],
  runSpendCapUsd: null,
};

describe("budgets: who may do what", () => {
  it("another organization's budget is 404 to read and to replace, and stays as it was", async () => {
    const path = `/projects/${other.projectId}/budget`;
    problemOf(await call(h, "GET", path, { key: t.read }), 404, "not-found");
    problemOf(await call(h, "PUT", path, { key: t.write, body }), 404, "not-found");
    expect((await call(h, "GET", path, { key: other.read })).json.mode).toBe("alert_only");
  });

  it("a read key reads the budget; replacing it is 403", async () => {
    const path = `/projects/${t.projectId}/budget`;
    expect((await call(h, "GET", path, { key: t.read })).status).toBe(200);
    problemOf(await call(h, "PUT", path, { key: t.read, body }), 403, "forbidden");
    expect((await call(h, "GET", path, { key: t.read })).json.mode).toBe("alert_only");
  });

  it("an SDK key is 401", async () => {
    problemOf(
      await call(h, "GET", `/projects/${t.projectId}/budget`, { key: t.sdkKey }),
      401,
      "unauthorized",
    );
    problemOf(
      await call(h, "PUT", `/projects/${t.projectId}/budget`, { key: t.sdkKey, body }),
      401,
      "unauthorized",
    );
  });
});
