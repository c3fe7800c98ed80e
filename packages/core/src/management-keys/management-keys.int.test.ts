import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey } from "../api-keys/create-api-key";
import { listAuditEvents } from "../audit/list-audit-events";
import { type Ctx, type Role, systemCtx } from "../context";
import { newId } from "../ids";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";
import { authenticateManagementKey, managementCtx } from "./authenticate-management-key";
import { createManagementKey } from "./create-management-key";
import { listManagementKeys } from "./list-management-keys";
import { revokeManagementKey } from "./revoke-management-key";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const sys = systemCtx({ db, config, log: pino({ level: "silent" }) });
afterAll(() => db.$disconnect());

async function user(isOperator = false) {
  const id = newId("user");
  await db.user.create({ data: { id, name: `U ${id}`, email: `${id}@example.test`, isOperator } });
  return id;
}

async function orgWith(role: Role, isOperator = false) {
  const org = await createOrganization(sys, { name: `MK ${newId("res")}`, planSlug: "team" });
  const userId = await user(isOperator);
  await db.member.create({ data: { id: newId("mem"), organizationId: org.id, userId, role } });
  const ctx: Ctx = { ...sys, actor: { type: "user", userId, isOperator }, organizationId: org.id, role };
  return { org, ctx };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string }) => e.code ?? String(e),
  );

describe("management keys: who may create, list and revoke them", () => {
  it("owners and admins create read and write keys; members and viewers may not", async () => {
    for (const role of ["owner", "admin"] as const) {
      const { ctx, org } = await orgWith(role);
      const { managementKey, key } = await createManagementKey(ctx, { name: "ci", scope: "write" });
      expect(managementKey).toMatch(/^sk_mgmt_[0-9a-f]{64}$/);
      expect(key).toMatchObject({
        organizationId: org.id,
        scope: "write",
        revokedAt: null,
        lastUsedAt: null,
      });
      expect(managementKey.startsWith(key.prefix.replace("…", ""))).toBe(true);
      const row = await db.managementKey.findUniqueOrThrow({ where: { id: key.id } });
      expect(row.hash).not.toContain(managementKey.slice(8));
    }
    for (const role of ["member", "viewer"] as const) {
      const { ctx } = await orgWith(role);
      expect(await codeOf(createManagementKey(ctx, { name: "ci", scope: "read" }))).toBe("FORBIDDEN");
      expect(await codeOf(listManagementKeys(ctx))).toBe("FORBIDDEN");
    }
  });

  it("operator keys are the operator's alone, and belong to no organization", async () => {
    const { ctx: owner } = await orgWith("owner");
    expect(await codeOf(createManagementKey(owner, { name: "billing", scope: "operator" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(listManagementKeys(owner, { owner: "operator" }))).toBe("FORBIDDEN");
    const opId = await user(true);
    const op: Ctx = { ...sys, actor: { type: "user", userId: opId, isOperator: true } };
    const { key } = await createManagementKey(op, { name: "billing", scope: "operator" });
    expect(key.organizationId).toBeNull();
    expect((await listManagementKeys(op, { owner: "operator" })).map((k) => k.id)).toContain(key.id);
    expect(await codeOf(revokeManagementKey(owner, { keyId: key.id }))).toBe("NOT_FOUND");
  });

  it("an expiry in the past is refused with a field error", async () => {
    const { ctx } = await orgWith("admin");
    const err = await createManagementKey(ctx, {
      name: "old",
      scope: "read",
      expiresAt: new Date(Date.now() - 1000),
    }).catch((e) => e);
    expect(err.code).toBe("INVALID");
    expect(err.details.fieldErrors).toEqual({ expiresAt: "Expiry must be in the future" });
  });

  it("lists show only the organization's keys; another organization's key is NOT_FOUND to revoke", async () => {
    const a = await orgWith("owner");
    const b = await orgWith("owner");
    const ka = await createManagementKey(a.ctx, { name: "a", scope: "read" });
    const kb = await createManagementKey(b.ctx, { name: "b", scope: "read" });
    expect((await listManagementKeys(a.ctx)).map((k) => k.id)).toEqual([ka.key.id]);
    expect(await codeOf(revokeManagementKey(a.ctx, { keyId: kb.key.id }))).toBe("NOT_FOUND");
    expect((await listManagementKeys(b.ctx))[0]!.revokedAt).toBeNull();
  });

  it("a management key cannot mint, list or revoke management keys", async () => {
    const { ctx, org } = await orgWith("owner");
    const { key } = await createManagementKey(ctx, { name: "w", scope: "write" });
    const asKey = managementCtx(sys, { keyId: key.id, name: "w", scope: "write", organizationId: org.id });
    expect(await codeOf(createManagementKey(asKey, { name: "x", scope: "write" }))).toBe("FORBIDDEN");
    expect(await codeOf(listManagementKeys(asKey))).toBe("FORBIDDEN");
    expect(await codeOf(revokeManagementKey(asKey, { keyId: key.id }))).toBe("FORBIDDEN");
  });
});

describe("management keys: authentication and audit", () => {
  it("a live key authenticates; SDK keys, revoked and expired keys do not", async () => {
    const { ctx, org } = await orgWith("owner");
    const { managementKey, key } = await createManagementKey(ctx, { name: "deploys", scope: "write" });
    expect(await authenticateManagementKey({ db }, `Bearer ${managementKey}`)).toEqual({
      keyId: key.id,
      name: "deploys",
      scope: "write",
      organizationId: org.id,
    });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const sdk = await createApiKey(sys, { projectId: project.id });
    expect(await authenticateManagementKey({ db }, `Bearer ${sdk.apiKey}`)).toBeNull();
    const later = Date.now() + 3600_000;
    const expiring = await createManagementKey(ctx, { name: "e", scope: "read", expiresAt: new Date(later) });
    expect(await authenticateManagementKey({ db }, `Bearer ${expiring.managementKey}`, later + 1)).toBeNull();
    await revokeManagementKey(ctx, { keyId: key.id });
    expect(await authenticateManagementKey({ db }, `Bearer ${managementKey}`)).toBeNull();
  });

  it("creation and revocation are audited, and writes made with a key name it", async () => {
    const { ctx, org } = await orgWith("owner");
    const { key } = await createManagementKey(ctx, { name: "terraform", scope: "write" });
    const asKey = managementCtx(sys, {
      keyId: key.id,
      name: "terraform",
      scope: "write",
      organizationId: org.id,
    });
    const project = await createProject(asKey, { organizationId: org.id, name: "from-terraform" });
    await revokeManagementKey(ctx, { keyId: key.id });
    const { events } = await listAuditEvents(ctx, {});
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["management_key.create", "management_key.revoke", "project.create"]),
    );
    const made = events.find((e) => e.action === "project.create" && e.targetId === project.id)!;
    expect(made.actor).toEqual({ type: "management_key", id: key.id, name: "terraform", email: null });
  });
});
