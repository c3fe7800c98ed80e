import { afterAll, describe, expect, it } from "vitest";
import { createContext } from "./context";
import { createCaller } from "./root";
import { apiTestEnv, codeOf } from "./testing";

const { deps, auth, signUp, close } = apiTestEnv("api-test");
afterAll(close);

describe("dashboard API tenancy", () => {
  it("gives better-auth rows Breakwater's prefixed ids and never makes a sign-up the operator", async () => {
    const a = await signUp("Ada");
    const b = await signUp("Bob");
    expect(a.userId).toMatch(/^user_[0-9a-f]{24}$/);
    const session = await deps.db.session.findFirstOrThrow({ where: { userId: a.userId } });
    expect(session.id).toMatch(/^sess_[0-9a-f]{24}$/);
    // The first operator comes from the one-time setup link (or `bw user create --operator`),
    // never from signing up, first or not.
    expect((await deps.db.user.findUniqueOrThrow({ where: { id: a.userId } })).isOperator).toBe(false);
    expect((await deps.db.user.findUniqueOrThrow({ where: { id: b.userId } })).isOperator).toBe(false);
  });

  it("creates an organization with a free subscription and the caller as active owner", async () => {
    const a = await signUp("Ada");
    const org = await (await a.caller()).organization.create({ name: "Ada Labs" });
    expect(org).toMatchObject({ id: expect.stringMatching(/^org_/), planSlug: "free" });
    const sub = await deps.db.subscription.findUniqueOrThrow({ where: { organizationId: org.id } });
    expect(sub.status).toBe("active");
    const me = await (await a.caller()).me.get();
    expect(me?.organization?.id).toBe(org.id);
    expect(me?.role).toBe("owner");
    const session = await deps.db.session.findFirstOrThrow({ where: { userId: a.userId } });
    expect(session.activeOrganizationId).toBe(org.id);
  });

  it("answers NOT_FOUND, never FORBIDDEN, for another tenant's project, keys and organization", async () => {
    const a = await signUp("Ada");
    const b = await signUp("Bob");
    const orgA = await (await a.caller()).organization.create({ name: "Tenant A" });
    await (await b.caller()).organization.create({ name: "Tenant B" });
    const asA = await a.caller();
    const project = await asA.project.create({ name: "checkout", mode: "hard_deny", limits: { daily: 10 } });
    const { key } = await asA.apiKey.create({ projectId: project.id, name: "prod", readOnly: false });

    const asB = await b.caller();
    expect(await asB.project.list()).toEqual([]);
    expect(await codeOf(asB.project.get({ projectId: project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.apiKey.list({ projectId: project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.apiKey.create({ projectId: project.id, name: "x" }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.apiKey.revoke({ keyId: key.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.organization.setActive({ organizationId: orgA.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.project.get({ projectId: "proj_000000000000000000000000" }))).toBe("NOT_FOUND");
    // A's key is untouched by B's attempts.
    expect((await asA.apiKey.list({ projectId: project.id }))[0]?.revokedAt).toBeNull();
  });

  it("lets a viewer read but not create projects or keys", async () => {
    const owner = await signUp("Olga");
    const viewer = await signUp("Vic");
    const org = await (await owner.caller()).organization.create({ name: "Viewed" });
    const project = await (await owner.caller()).project.create({ name: "api", limits: { monthly: 50 } });
    await auth.api.addMember({ body: { userId: viewer.userId, organizationId: org.id, role: "viewer" } });

    const asViewer = await viewer.caller();
    const me = await asViewer.me.get();
    expect(me).toMatchObject({ role: "viewer", can: { manageKeys: false, manageProjects: false } });
    expect((await asViewer.project.list()).map((p) => p.id)).toEqual([project.id]);
    expect(await asViewer.apiKey.list({ projectId: project.id })).toEqual([]);
    expect(await codeOf(asViewer.apiKey.create({ projectId: project.id, name: "mine" }))).toBe("FORBIDDEN");
    expect(await codeOf(asViewer.project.create({ name: "another" }))).toBe("FORBIDDEN");
  });

  it("shows a key once, stores it revocable, and explains the plan's project limit", async () => {
    const a = await signUp("Kim");
    await (await a.caller()).organization.create({ name: "Keys" });
    const asA = await a.caller();
    const project = await asA.project.create({ name: "one", limits: { weekly: 5 } });
    const created = await asA.apiKey.create({ projectId: project.id, name: "ci", readOnly: true });
    expect(created.apiKey).toMatch(/^sk_proj_[0-9a-f]{64}$/);
    const listed = await asA.apiKey.list({ projectId: project.id });
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
    expect(listed[0]).toMatchObject({ readOnly: true, revokedAt: null });
    const revoked = await asA.apiKey.revoke({ keyId: created.key.id });
    expect(revoked.revokedAt).not.toBeNull();

    // Bad input reads as a sentence naming the field, not a dump of validator output.
    await expect(asA.apiKey.create({ projectId: project.id, name: "   " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "name: Name is required",
    });

    const second = asA.project.create({ name: "two" });
    await expect(second).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringMatching(/plan allows 1 project/),
    });
  });

  it("refuses signed-out callers and callers without an organization clearly", async () => {
    const anon = createCaller(await createContext({ deps, auth, headers: new Headers() }));
    expect(await anon.me.get()).toBeNull();
    expect(await codeOf(anon.project.list())).toBe("UNAUTHORIZED");
    const lonely = await signUp("Lee");
    expect(await codeOf((await lonely.caller()).project.list())).toBe("PRECONDITION_FAILED");
    expect(await codeOf((await lonely.caller()).project.create({ name: "x" }))).toBe("PRECONDITION_FAILED");
  });
});
