import { type Ctx, inviteMember, newId } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invitationResource, listOf, memberResource } from "./schemas";
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
  return { id, ctx };
}

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
