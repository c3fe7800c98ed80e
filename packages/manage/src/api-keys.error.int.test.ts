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

describe("project API keys: refused input", () => {
  it("bad names and types are 422 with pointers", async () => {
    const path = `/projects/${t.projectId}/api-keys`;
    const r = await call(h, "POST", path, { key: t.write, body: { name: " ", readOnly: "yes" } });
    expect(
      problemOf(r, 422, "validation-failed")
        .errors!.map((e) => e.pointer)
        .sort(),
    ).toEqual(["/name", "/readOnly"]);
    problemOf(
      await call(h, "POST", path, { key: t.write, body: { name: "k".repeat(101) } }),
      422,
      "validation-failed",
    );
  });

  it("a key id of another project of the same organization is 404 and stays live", async () => {
    const second = (await call(h, "POST", "/projects", { key: t.write, body: { name: "second" } })).json;
    const key = (
      await call(h, "POST", `/projects/${second.id}/api-keys`, { key: t.write, body: { name: "k" } })
    ).json;
    problemOf(
      await call(h, "DELETE", `/projects/${t.projectId}/api-keys/${key.id}`, { key: t.write }),
      404,
      "not-found",
    );
    const list = await call(h, "GET", `/projects/${second.id}/api-keys`, { key: t.read });
    expect(list.json.data.find((k: { id: string }) => k.id === key.id).revokedAt).toBeNull();
  });

  it("unknown projects and keys are 404", async () => {
    problemOf(await call(h, "GET", "/projects/proj_nope/api-keys", { key: t.read }), 404, "not-found");
    problemOf(
      await call(h, "DELETE", `/projects/${t.projectId}/api-keys/key_nope`, { key: t.write }),
      404,
      "not-found",
    );
  });
});
