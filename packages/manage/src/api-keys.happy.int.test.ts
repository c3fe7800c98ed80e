import { createApiKeyAuthenticator } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyResource, createdApiKeyResource, listOf } from "./schemas";
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

describe("project API keys", () => {
  it("create answers the key once; it authenticates on the SDK API; the list shows only its prefix", async () => {
    const r = await call(h, "POST", `/projects/${t.projectId}/api-keys`, {
      key: t.write,
      body: { name: "deploy" },
    });
    expect(r.status).toBe(201);
    const created = shapeOf(createdApiKeyResource, r);
    expect(created).toMatchObject({
      projectId: t.projectId,
      name: "deploy",
      readOnly: false,
      revokedAt: null,
    });
    expect(created.key.startsWith(created.prefix.replace("…", ""))).toBe(true);

    const auth = createApiKeyAuthenticator({ db: h.db });
    expect(await auth.authenticate(`Bearer ${created.key}`)).toMatchObject({ projectId: t.projectId });

    const list = await call(h, "GET", `/projects/${t.projectId}/api-keys`, { key: t.read });
    const page = shapeOf(listOf(apiKeyResource), list);
    expect(page.data.map((k) => k.id)).toContain(created.id);
    expect(list.text).not.toContain(created.key);
  });

  it("revoke marks the key revoked and it stops authenticating", async () => {
    const created = (
      await call(h, "POST", `/projects/${t.projectId}/api-keys`, {
        key: t.write,
        body: { name: "short-lived", readOnly: true },
      })
    ).json;
    const r = await call(h, "DELETE", `/projects/${t.projectId}/api-keys/${created.id}`, { key: t.write });
    expect(r.status).toBe(200);
    expect(shapeOf(apiKeyResource, r).revokedAt).not.toBeNull();
    const auth = createApiKeyAuthenticator({ db: h.db });
    expect(await auth.authenticate(`Bearer ${created.key}`)).toBeNull();
    // Revoking again answers the same revocation.
    const again = await call(h, "DELETE", `/projects/${t.projectId}/api-keys/${created.id}`, {
      key: t.write,
    });
    expect(again.json.revokedAt).toBe(r.json.revokedAt);
  });
});
