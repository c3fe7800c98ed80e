import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOf, tagRuleResource } from "./schemas";
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
  t = await createManageTenant(h);
  other = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

const rule = { name: "team-a", selector: { team: "a" }, period: "daily", limitUsd: 5 };

describe("tag rules: happy", () => {
  it("create, list, replace and delete", async () => {
    const base = `/projects/${t.projectId}/tag-rules`;
    const created = await call(h, "POST", base, { key: t.write, body: rule });
    expect(created.status).toBe(201);
    const r = shapeOf(tagRuleResource, created);
    expect(r).toMatchObject({
      name: "team-a",
      selector: { team: "a" },
      period: "daily",
      limitUsd: 5,
      enabled: true,
    });

    const replaced = await call(h, "PUT", `${base}/${r.id}`, {
      key: t.write,
      body: { ...rule, limitUsd: 7.5, enabled: false },
    });
    expect(shapeOf(tagRuleResource, replaced)).toMatchObject({ id: r.id, limitUsd: 7.5, enabled: false });

    const list = shapeOf(listOf(tagRuleResource), await call(h, "GET", base, { key: t.read }));
    expect(list.data.map((x) => [x.id, x.limitUsd])).toEqual([[r.id, 7.5]]);

    expect((await call(h, "DELETE", `${base}/${r.id}`, { key: t.write })).status).toBe(204);
    expect(shapeOf(listOf(tagRuleResource), await call(h, "GET", base, { key: t.read })).data).toEqual([]);
  });
});

describe("tag rules: error", () => {
  it("bad selectors, periods and limits are 422 with pointers; an unknown rule is 404", async () => {
    const base = `/projects/${t.projectId}/tag-rules`;
    const bad = await call(h, "POST", base, {
      key: t.write,
      body: { name: "x", selector: {}, period: "hourly", limitUsd: 0 },
    });
    const pointers = problemOf(bad, 422, "validation-failed")
      .errors!.map((e) => e.pointer)
      .sort();
    expect(pointers).toEqual(["/limitUsd", "/period", "/selector"]);
    problemOf(await call(h, "PUT", `${base}/tagr_nope`, { key: t.write, body: rule }), 404, "not-found");
    problemOf(await call(h, "DELETE", `${base}/tagr_nope`, { key: t.write }), 404, "not-found");
  });
});

describe("tag rules: security", () => {
  it("another organization's project and rules are 404; a read key's writes 403", async () => {
    const theirs = shapeOf(
      tagRuleResource,
      await call(h, "POST", `/projects/${other.projectId}/tag-rules`, { key: other.write, body: rule }),
    );
    problemOf(
      await call(h, "GET", `/projects/${other.projectId}/tag-rules`, { key: t.read }),
      404,
      "not-found",
    );
    problemOf(
      await call(h, "PUT", `/projects/${other.projectId}/tag-rules/${theirs.id}`, {
        key: t.write,
        body: rule,
      }),
      404,
      "not-found",
    );
    // Their rule id under our own project is not found either.
    problemOf(
      await call(h, "DELETE", `/projects/${t.projectId}/tag-rules/${theirs.id}`, { key: t.write }),
      404,
      "not-found",
    );
    problemOf(
      await call(h, "POST", `/projects/${t.projectId}/tag-rules`, { key: t.read, body: rule }),
      403,
      "forbidden",
    );
    problemOf(
      await call(h, "POST", `/projects/${t.projectId}/tag-rules`, { key: t.sdkKey, body: rule }),
      401,
      "unauthorized",
    );
  });
});
