import { type Ctx, createManagementKey, inviteMember, newId } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createdInvitationResource, invitationResource, listOf, memberResource } from "./schemas";
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

/** A user who is a member of `organizationId` with `role`; returns the member id and a context acting as them. */
async function member(organizationId: string, role: "owner" | "admin" | "member" | "viewer") {
  const userId = newId("user");
  await h.db.user.create({
    data: { id: userId, name: `${role} ${userId}`, email: `${userId}@example.test` },
  });
  const id = newId("mem");
  await h.db.member.create({ data: { id, organizationId, userId, role } });
  const ctx: Ctx = { ...h.sys, actor: { type: "user", userId, isOperator: false }, organizationId, role };
  return { id, userId, ctx };
}

/** A write key created by a new admin of `organizationId` (its invitations name that admin). */
async function adminsKey(organizationId: string, name = "onboarding") {
  const admin = await member(organizationId, "admin");
  const { managementKey, key } = await createManagementKey(admin.ctx, { name, scope: "write" });
  return { admin, key: managementKey, keyId: key.id };
}

const email = () => `new-${newId("res")}@example.test`;

describe("members: happy", () => {
  it("lists members, changes a role and removes a member with a write key", async () => {
    const owner = await member(t.organizationId, "owner");
    const m = await member(t.organizationId, "member");
    const list = shapeOf(listOf(memberResource), await call(h, "GET", "/members", { key: t.read }));
    expect(list.data.map((x) => [x.id, x.role])).toEqual([
      [owner.id, "owner"],
      [m.id, "member"],
    ]);
    const changed = await call(h, "PATCH", `/members/${m.id}`, { key: t.write, body: { role: "viewer" } });
    expect(shapeOf(memberResource, changed).role).toBe("viewer");
    expect((await call(h, "DELETE", `/members/${m.id}`, { key: t.write })).status).toBe(204);
    const after = shapeOf(listOf(memberResource), await call(h, "GET", "/members", { key: t.read }));
    expect(after.data.map((x) => x.id)).toEqual([owner.id]);
  });

  it("lists and revokes pending invitations", async () => {
    const owner = await member(t.organizationId, "owner");
    const { invitation } = await inviteMember(owner.ctx, {
      email: `new-${newId("res")}@example.test`,
      role: "member",
    });
    const list = shapeOf(listOf(invitationResource), await call(h, "GET", "/invitations", { key: t.write }));
    expect(list.data.map((i) => i.id)).toContain(invitation.id);
    expect((await call(h, "DELETE", `/invitations/${invitation.id}`, { key: t.write })).status).toBe(204);
    const after = shapeOf(listOf(invitationResource), await call(h, "GET", "/invitations", { key: t.write }));
    expect(after.data.map((i) => i.id)).not.toContain(invitation.id);
  });
});

describe("members: error", () => {
  it("an unknown role is 422 on /role; unknown members and invitations 404", async () => {
    const m = await member(t.organizationId, "member");
    const p = problemOf(
      await call(h, "PATCH", `/members/${m.id}`, { key: t.write, body: { role: "god" } }),
      422,
      "validation-failed",
    );
    expect(p.errors).toEqual([{ pointer: "/role", detail: expect.any(String) }]);
    problemOf(
      await call(h, "PATCH", "/members/mem_nope", { key: t.write, body: { role: "viewer" } }),
      404,
      "not-found",
    );
    problemOf(await call(h, "DELETE", "/invitations/inv_nope", { key: t.write }), 404, "not-found");
  });
});

describe("members: security", () => {
  it("a write key acts as an admin: it cannot grant or take away the owner role", async () => {
    const owner = await member(t.organizationId, "owner");
    const m = await member(t.organizationId, "member");
    problemOf(
      await call(h, "PATCH", `/members/${m.id}`, { key: t.write, body: { role: "owner" } }),
      403,
      "forbidden",
    );
    problemOf(await call(h, "DELETE", `/members/${owner.id}`, { key: t.write }), 403, "forbidden");
  });

  it("a read key lists members; its writes and the invitation list are 403", async () => {
    const m = await member(t.organizationId, "member");
    expect((await call(h, "GET", "/members", { key: t.read })).status).toBe(200);
    problemOf(
      await call(h, "PATCH", `/members/${m.id}`, { key: t.read, body: { role: "viewer" } }),
      403,
      "forbidden",
    );
    problemOf(await call(h, "DELETE", `/members/${m.id}`, { key: t.read }), 403, "forbidden");
    problemOf(await call(h, "GET", "/invitations", { key: t.read }), 403, "forbidden");
  });

  it("another organization's members and invitations are 404 and untouched", async () => {
    const theirOwner = await member(other.organizationId, "owner");
    const theirs = await member(other.organizationId, "member");
    const { invitation } = await inviteMember(theirOwner.ctx, {
      email: `x-${newId("res")}@example.test`,
      role: "viewer",
    });
    problemOf(
      await call(h, "PATCH", `/members/${theirs.id}`, { key: t.write, body: { role: "viewer" } }),
      404,
      "not-found",
    );
    problemOf(await call(h, "DELETE", `/members/${theirs.id}`, { key: t.write }), 404, "not-found");
    problemOf(await call(h, "DELETE", `/invitations/${invitation.id}`, { key: t.write }), 404, "not-found");
    const mine = shapeOf(listOf(memberResource), await call(h, "GET", "/members", { key: t.read }));
    expect(mine.data.map((x) => x.id)).not.toContain(theirs.id);
    const row = await h.db.member.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(row.role).toBe("member");
  });
});

describe("invitations: happy", () => {
  it("a write key invites as the member who created it; the accept link is in the answer; the audit log shows the key", async () => {
    const { admin, key, keyId } = await adminsKey(t.organizationId);
    const address = email();
    const r = await call(h, "POST", "/invitations", {
      key,
      body: { email: address.toUpperCase(), role: "member" },
      headers: { "idempotency-key": `invite-${address}` },
    });
    expect(r.status).toBe(201);
    const inv = shapeOf(createdInvitationResource, r);
    expect(inv).toMatchObject({
      email: address,
      role: "member",
      inviterName: `admin ${admin.userId}`,
      expired: false,
    });
    expect(inv.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);

    // A retry with the same Idempotency-Key gets the first answer and invites no one twice.
    const again = await call(h, "POST", "/invitations", {
      key,
      body: { email: address.toUpperCase(), role: "member" },
      headers: { "idempotency-key": `invite-${address}` },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(inv.id);

    const row = await h.db.invitation.findUniqueOrThrow({ where: { id: inv.id } });
    expect(row).toMatchObject({
      organizationId: t.organizationId,
      inviterId: admin.userId,
      status: "pending",
    });
    const audit = await h.db.auditEvent.findFirstOrThrow({
      where: { targetId: inv.id, action: "invitation.create" },
    });
    expect(audit).toMatchObject({ actorType: "management_key", actorId: keyId });
    expect(audit.after).toMatchObject({ inviterId: admin.userId, managementKeyName: "onboarding" });
    const list = shapeOf(listOf(invitationResource), await call(h, "GET", "/invitations", { key }));
    expect(list.data.map((i) => i.id)).toContain(inv.id);
  });
});

describe("invitations: error", () => {
  it("a bad email or role is 422 on its field", async () => {
    const { key } = await adminsKey(t.organizationId);
    const p = problemOf(
      await call(h, "POST", "/invitations", { key, body: { email: "not an address", role: "king" } }),
      422,
      "validation-failed",
    );
    expect(p.errors!.map((e) => e.pointer).sort()).toEqual(["/email", "/role"]);
    problemOf(await call(h, "POST", "/invitations", { key, body: {} }), 422, "validation-failed");
  });

  it("an address already invited or a member is 409", async () => {
    const { key } = await adminsKey(t.organizationId);
    const address = email();
    expect(
      (await call(h, "POST", "/invitations", { key, body: { email: address, role: "viewer" } })).status,
    ).toBe(201);
    problemOf(
      await call(h, "POST", "/invitations", { key, body: { email: address, role: "viewer" } }),
      409,
      "conflict",
    );
    const m = await h.db.user.findFirstOrThrow({
      where: { members: { some: { organizationId: t.organizationId } } },
    });
    problemOf(
      await call(h, "POST", "/invitations", { key, body: { email: m.email, role: "viewer" } }),
      409,
      "conflict",
    );
  });

  it("a key whose creator left, or that nobody created, is 409 with what to do, and invites no one", async () => {
    const { admin, key } = await adminsKey(t.organizationId);
    await h.db.member.delete({ where: { id: admin.id } });
    const address = email();
    const left = problemOf(
      await call(h, "POST", "/invitations", { key, body: { email: address, role: "member" } }),
      409,
      "conflict",
    );
    expect(left.detail).toMatch(/creator is not a member/);
    // The harness's keys are minted without a person (as bw does).
    problemOf(
      await call(h, "POST", "/invitations", { key: t.write, body: { email: address, role: "member" } }),
      409,
      "conflict",
    );
    expect(await h.db.invitation.count({ where: { email: address } })).toBe(0);
  });
});

describe("invitations: security", () => {
  it("a read key's invitation is 403, an SDK key's 401; a write key (an admin) cannot invite an owner", async () => {
    const { key } = await adminsKey(t.organizationId);
    const body = { email: email(), role: "member" };
    problemOf(await call(h, "POST", "/invitations", { key: t.read, body }), 403, "forbidden");
    problemOf(await call(h, "POST", "/invitations", { key: t.sdkKey, body }), 401, "unauthorized");
    problemOf(
      await call(h, "POST", "/invitations", { key, body: { ...body, role: "owner" } }),
      403,
      "forbidden",
    );
    expect(await h.db.invitation.count({ where: { email: body.email } })).toBe(0);
  });

  it("a key invites into its own organization only, even when its creator belongs to another too", async () => {
    const { admin, key } = await adminsKey(other.organizationId);
    await h.db.member.create({
      data: { id: newId("mem"), organizationId: t.organizationId, userId: admin.userId, role: "owner" },
    });
    const r = shapeOf(
      createdInvitationResource,
      await call(h, "POST", "/invitations", { key, body: { email: email(), role: "member" } }),
    );
    const row = await h.db.invitation.findUniqueOrThrow({ where: { id: r.id } });
    expect(row.organizationId).toBe(other.organizationId);
  });
});
