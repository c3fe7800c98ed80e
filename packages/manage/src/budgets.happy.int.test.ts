import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetResource } from "./schemas";
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
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

const rules = (monthly: number) => ({
  mode: "hard_deny",
  limits: { daily: null, weekly: 20, monthly },
  thresholds: [90, 50, 50],
  runSpendCapUsd: 2.5,
});

describe("budgets and run caps", () => {
  it("read with an ETag, replace with If-Match, read the new rules and tag", async () => {
    const first = await call(h, "GET", `/projects/${t.projectId}/budget`, { key: t.read });
    expect(first.status).toBe(200);
    expect(shapeOf(budgetResource, first)).toEqual({
      projectId: t.projectId,
      mode: "alert_only",
      limits: { daily: null, weekly: null, monthly: 50 },
      thresholds: [50, 80, 100],
      runSpendCapUsd: null,
    });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);

    const put = await call(h, "PUT", `/projects/${t.projectId}/budget`, {
      key: t.write,
      body: rules(80),
      headers: { "if-match": etag },
    });
    expect(put.status).toBe(200);
    expect(shapeOf(budgetResource, put)).toMatchObject({
      mode: "hard_deny",
      thresholds: [50, 90],
      runSpendCapUsd: 2.5,
    });
    const next = put.headers.get("etag")!;
    expect(next).not.toBe(etag);

    const again = await call(h, "GET", `/projects/${t.projectId}/budget`, { key: t.read });
    expect(again.headers.get("etag")).toBe(next);
    expect(again.json.limits).toEqual({ daily: null, weekly: 20, monthly: 80 });

    // The tag is of the rules, not of the write: the same rules written again keep it.
    const same = await call(h, "PUT", `/projects/${t.projectId}/budget`, { key: t.write, body: rules(80) });
    expect(same.headers.get("etag")).toBe(next);
  });

  it("two replaces holding the same If-Match: exactly one wins, the other is 412", async () => {
    const own = await createManageTenant(h);
    const path = `/projects/${own.projectId}/budget`;
    const etag = (await call(h, "GET", path, { key: own.read })).headers.get("etag")!;
    const [a, b] = await Promise.all([
      call(h, "PUT", path, { key: own.write, body: rules(70), headers: { "if-match": etag } }),
      call(h, "PUT", path, { key: own.write, body: rules(90), headers: { "if-match": etag } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const loser = a.status === 412 ? a : b;
    const winner = a.status === 200 ? a : b;
    problemOf(loser, 412, "precondition-failed");
    const now = await call(h, "GET", path, { key: own.read });
    expect(now.json.limits.monthly).toBe(winner.json.limits.monthly);
    expect(now.headers.get("etag")).toBe(winner.headers.get("etag"));
  });

  it("If-Match: * replaces whatever is there", async () => {
    const r = await call(h, "PUT", `/projects/${t.projectId}/budget`, {
      key: t.write,
      body: rules(60),
      headers: { "if-match": "*" },
    });
    expect(r.status).toBe(200);
  });
});
