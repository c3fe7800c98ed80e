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

describe("project API keys: who may do what", () => {
  it("another organization's project and keys are 404; nothing is minted or revoked there", async () => {
    const theirs = (await call(h, "GET", `/projects/${other.projectId}/api-keys`, { key: other.read })).json
      .data;
    problemOf(
      await call(h, "GET", `/projects/${other.projectId}/api-keys`, { key: t.read }),
      404,
      "not-found",
    );
    problemOf(
      await call(h, "POST", `/projects/${other.projectId}/api-keys`, { key: t.write, body: { name: "x" } }),
      404,
      "not-found",
    );
    problemOf(
      await call(h, "DELETE", `/projects/${other.projectId}/api-keys/${theirs[0].id}`, { key: t.write }),
      404,
      "not-found",
    );
    const after = (await call(h, "GET", `/projects/${other.projectId}/api-keys`, { key: other.read })).json
      .data;
    expect(after).toEqual(theirs);
  });

  it("a read key lists keys; minting and revoking are 403", async () => {
    const path = `/projects/${t.projectId}/api-keys`;
    const keys = (await call(h, "GET", path, { key: t.read })).json.data;
    problemOf(await call(h, "POST", path, { key: t.read, body: { name: "x" } }), 403, "forbidden");
    problemOf(await call(h, "DELETE", `${path}/${keys[0].id}`, { key: t.read }), 403, "forbidden");
    expect((await call(h, "GET", path, { key: t.read })).json.data).toEqual(keys);
  });

  it("an SDK key is 401, even its own project's", async () => {
    problemOf(
      await call(h, "GET", `/projects/${t.projectId}/api-keys`, { key: t.sdkKey }),
      401,
      "unauthorized",
    );
  });
});
