import { randomUUID } from "node:crypto";
import { hashInvitationToken } from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { createAuthHandler } from "../auth/auth-handler";
import { createAuth, createAuthLimiter } from "../auth/create-auth";
import { createContext } from "../context";
import { createCaller } from "../root";
import { apiTestEnv, codeOf } from "../testing";

const { deps, auth, signUp, close } = apiTestEnv("api-members-test");
afterAll(close);

type Person = Awaited<ReturnType<typeof signUp>>;

/** An organization owned by a fresh user, with extra users signed up (not members yet). */
async function orgWithOwner(name = "Members") {
  const owner = await signUp("Olga");
  const org = await (await owner.caller()).organization.create({ name });
  return { owner, org };
}

/** Invites `who` with `role` as `by` and accepts with who's session; returns their member id. */
async function join(by: Person, who: Person, role: "owner" | "admin" | "member" | "viewer") {
  const { url } = await (await by.caller()).member.invite({ email: who.email, role });
  const token = url.split("/invite/")[1]!;
  const joined = await (await who.caller()).invitation.accept({ token });
  return joined.memberId;
}

const tokenOf = (url: string) => url.split("/invite/")[1]!;

async function fieldError(p: Promise<unknown>): Promise<{ code: string; fields: Record<string, string> }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(err)}`);
  // Field errors are what the form shows; the procedure's formatter reads them from the cause.
  const { fieldErrorsOf } = await import("../errors");
  return { code: err.code, fields: fieldErrorsOf(err.cause) ?? {} };
}

describe("member procedures", () => {
  it("invites, accepts through the link, lists, changes role and removes, each audited", async () => {
    const { owner, org } = await orgWithOwner();
    const bob = await signUp("Bob");
    const asOwner = await owner.caller();
    const { invitation, url } = await asOwner.member.invite({
      email: bob.email.toUpperCase(),
      role: "member",
    });
    expect(invitation).toMatchObject({ email: bob.email, role: "member", expired: false });
    // The link carries 256 random bits; the database holds only their hash.
    const token = tokenOf(url);
    expect(url).toBe(`${deps.config.PUBLIC_URL.replace(/\/$/, "")}/invite/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await deps.db.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const expiresInDays = (row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000;
    expect(expiresInDays).toBeCloseTo(7, 3);
    expect((await asOwner.member.list()).invitations.map((i) => i.id)).toEqual([invitation.id]);

    // Signed out, the link says what it is for.
    const anon = createCaller(await createContext({ deps, auth, headers: new Headers() }));
    expect(await anon.invitation.get({ token })).toMatchObject({
      state: "pending",
      organizationName: "Members",
      email: bob.email,
      role: "member",
    });
    expect(await anon.invitation.get({ token: "x".repeat(43) })).toBeNull();
    expect(await codeOf(anon.invitation.accept({ token }))).toBe("UNAUTHORIZED");

    const joined = await (await bob.caller()).invitation.accept({ token });
    expect(joined).toMatchObject({ organizationId: org.id, role: "member" });
    // The session now acts in the organization it joined.
    expect((await (await bob.caller()).me.get())?.organization?.id).toBe(org.id);
    expect(await anon.invitation.get({ token })).toMatchObject({ state: "accepted" });
    expect(await codeOf((await bob.caller()).invitation.accept({ token }))).toBe("CONFLICT");

    const list = await asOwner.member.list();
    expect(list.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      [bob.email, "member"],
    ]);
    expect(list.invitations).toEqual([]);

    await asOwner.member.changeRole({ memberId: joined.memberId, role: "viewer" });
    await asOwner.member.remove({ memberId: joined.memberId });
    expect((await asOwner.member.list()).members.map((m) => m.email)).toEqual([owner.email]);
    // Removed: Bob has no organization left.
    expect(await codeOf((await bob.caller()).project.list())).toBe("PRECONDITION_FAILED");

    const audits = await deps.db.auditEvent.findMany({
      where: { organizationId: org.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(audits.map((a) => [a.action, a.actorId])).toEqual([
      ["organization.create", owner.userId],
      ["invitation.create", owner.userId],
      ["invitation.accept", bob.userId],
      ["member.update_role", owner.userId],
      ["member.remove", owner.userId],
    ]);
    expect(audits[3]).toMatchObject({
      targetId: joined.memberId,
      before: { email: bob.email, role: "member" },
      after: { email: bob.email, role: "viewer" },
    });
  });

  it("refuses bad invitations with a field error: invalid email, unknown role, member, duplicate", async () => {
    const { owner } = await orgWithOwner();
    const asOwner = await owner.caller();
    const bad = await fieldError(asOwner.member.invite({ email: "not-an-email", role: "member" }));
    expect(bad).toEqual({ code: "BAD_REQUEST", fields: { email: "Enter a valid email address" } });
    const role = await fieldError(
      asOwner.member.invite({ email: "x@example.test", role: "superuser" as unknown as "member" }),
    );
    expect(role).toEqual({
      code: "BAD_REQUEST",
      fields: { role: "Choose a role: owner, admin, member or viewer" },
    });
    const self = await fieldError(asOwner.member.invite({ email: owner.email, role: "admin" }));
    expect(self.code).toBe("CONFLICT");
    expect(self.fields.email).toMatch(/is already a member of this organization/);
    const email = `dup-${randomUUID()}@example.test`;
    await asOwner.member.invite({ email, role: "viewer" });
    const dup = await fieldError(asOwner.member.invite({ email: email.toUpperCase(), role: "admin" }));
    expect(dup.code).toBe("CONFLICT");
    expect(dup.fields.email).toMatch(/already has a pending invitation/);
    expect(await deps.db.invitation.count({ where: { email } })).toBe(1);
  });

  it("enforces roles: viewers and members read only, admins manage but never owners", async () => {
    const { owner, org } = await orgWithOwner();
    const [admin, member, viewer, other] = await Promise.all([
      signUp("Ann"),
      signUp("Max"),
      signUp("Vic"),
      signUp("Oz"),
    ]);
    const adminId = await join(owner, admin, "admin");
    const memberId = await join(owner, member, "member");
    await join(owner, viewer, "viewer");
    const ownerId = (
      await deps.db.member.findFirstOrThrow({ where: { organizationId: org.id, userId: owner.userId } })
    ).id;

    for (const who of [member, viewer]) {
      const c = await who.caller();
      expect((await c.member.list()).members).toHaveLength(4);
      expect((await c.member.list()).invitations).toEqual([]);
      expect(await codeOf(c.member.invite({ email: other.email, role: "viewer" }))).toBe("FORBIDDEN");
      expect(await codeOf(c.member.changeRole({ memberId, role: "viewer" }))).toBe("FORBIDDEN");
      expect(await codeOf(c.member.remove({ memberId }))).toBe("FORBIDDEN");
      expect(await codeOf(c.audit.list({}))).toBe("FORBIDDEN");
    }

    const asAdmin = await admin.caller();
    expect(await codeOf(asAdmin.member.invite({ email: other.email, role: "owner" }))).toBe("FORBIDDEN");
    expect(await codeOf(asAdmin.member.changeRole({ memberId, role: "owner" }))).toBe("FORBIDDEN");
    expect(await codeOf(asAdmin.member.changeRole({ memberId: ownerId, role: "admin" }))).toBe("FORBIDDEN");
    expect(await codeOf(asAdmin.member.remove({ memberId: ownerId }))).toBe("FORBIDDEN");
    const { invitation } = await asAdmin.member.invite({ email: other.email, role: "viewer" });
    await asAdmin.member.revokeInvitation({ invitationId: invitation.id });
    await asAdmin.member.changeRole({ memberId, role: "viewer" });
    expect((await asAdmin.audit.list({})).events.length).toBeGreaterThan(0);

    // Another organization's member is NOT_FOUND, never FORBIDDEN.
    const { owner: stranger } = await orgWithOwner("Elsewhere");
    const asStranger = await stranger.caller();
    expect(await codeOf(asStranger.member.remove({ memberId }))).toBe("NOT_FOUND");
    expect(await codeOf(asStranger.member.changeRole({ memberId: adminId, role: "viewer" }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(asStranger.member.revokeInvitation({ invitationId: invitation.id }))).toBe(
      "NOT_FOUND",
    );

    // An owner grants and takes away owner.
    const asOwner = await owner.caller();
    await asOwner.member.changeRole({ memberId: adminId, role: "owner" });
    await asOwner.member.changeRole({ memberId: adminId, role: "member" });
  });

  it("never removes or demotes the last owner", async () => {
    const { owner, org } = await orgWithOwner();
    const asOwner = await owner.caller();
    const me = await deps.db.member.findFirstOrThrow({
      where: { organizationId: org.id, userId: owner.userId },
    });
    const message = "An organization needs at least one owner: make another member an owner first.";
    await expect(asOwner.member.remove({ memberId: me.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message,
    });
    await expect(asOwner.member.changeRole({ memberId: me.id, role: "admin" })).rejects.toMatchObject({
      code: "CONFLICT",
      message,
    });
    expect((await deps.db.member.findUniqueOrThrow({ where: { id: me.id } })).role).toBe("owner");
    // With a second owner, an owner may step down.
    const second = await signUp("Sam");
    await join(owner, second, "owner");
    await asOwner.member.changeRole({ memberId: me.id, role: "admin" });
    expect(await deps.db.member.count({ where: { organizationId: org.id, role: "owner" } })).toBe(1);
  });

  it("two owners removing or demoting each other at once leave one owner", async () => {
    for (const op of ["remove", "demote"] as const) {
      const { owner: a, org } = await orgWithOwner();
      const b = await signUp("Bea");
      const bId = await join(a, b, "owner");
      const aId = (
        await deps.db.member.findFirstOrThrow({ where: { organizationId: org.id, userId: a.userId } })
      ).id;
      const [asA, asB] = await Promise.all([a.caller(), b.caller()]);
      const act = (c: typeof asA, memberId: string) =>
        op === "remove" ? c.member.remove({ memberId }) : c.member.changeRole({ memberId, role: "admin" });
      const results = await Promise.all([codeOf(act(asA, bId)), codeOf(act(asB, aId))]);
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(await deps.db.member.count({ where: { organizationId: org.id, role: "owner" } })).toBe(1);
    }
  });

  it("refuses a revoked, expired, used or someone else's invitation with a clear reason", async () => {
    const { owner } = await orgWithOwner();
    const asOwner = await owner.caller();
    const [bob, eve, cat] = await Promise.all([signUp("Bob"), signUp("Eve"), signUp("Cat")]);
    const anon = createCaller(await createContext({ deps, auth, headers: new Headers() }));

    // Someone else's link: the signed-in user is not the invited address.
    const forBob = tokenOf((await asOwner.member.invite({ email: bob.email, role: "member" })).url);
    await expect((await eve.caller()).invitation.accept({ token: forBob })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: `This invitation is for ${bob.email}; you are signed in as ${eve.email}`,
    });

    // Revoked.
    const inv = await asOwner.member.invite({ email: cat.email, role: "member" });
    await asOwner.member.revokeInvitation({ invitationId: inv.invitation.id });
    expect(await anon.invitation.get({ token: tokenOf(inv.url) })).toMatchObject({ state: "revoked" });
    await expect((await cat.caller()).invitation.accept({ token: tokenOf(inv.url) })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This invitation was revoked",
    });
    expect(await codeOf(asOwner.member.revokeInvitation({ invitationId: inv.invitation.id }))).toBe(
      "CONFLICT",
    );

    // Expired (the clock moved past its 7 days): a new invitation to the same address is allowed.
    const again = await asOwner.member.invite({ email: cat.email, role: "viewer" });
    await deps.db.invitation.update({
      where: { id: again.invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await anon.invitation.get({ token: tokenOf(again.url) })).toMatchObject({ state: "expired" });
    await expect((await cat.caller()).invitation.accept({ token: tokenOf(again.url) })).rejects.toMatchObject(
      {
        code: "CONFLICT",
        message: "This invitation has expired; ask for a new one",
      },
    );
    expect((await asOwner.member.list()).invitations.find((i) => i.id === again.invitation.id)?.expired).toBe(
      true,
    );
    const fresh = await asOwner.member.invite({ email: cat.email, role: "viewer" });

    // Malformed or unknown tokens.
    expect(await codeOf((await cat.caller()).invitation.accept({ token: "short" }))).toBe("BAD_REQUEST");
    expect(await codeOf((await cat.caller()).invitation.accept({ token: "A".repeat(43) }))).toBe("NOT_FOUND");

    // Two accepts of one link at once: one membership.
    const catCaller = await cat.caller();
    const both = await Promise.all([
      codeOf(catCaller.invitation.accept({ token: tokenOf(fresh.url) })),
      codeOf(catCaller.invitation.accept({ token: tokenOf(fresh.url) })),
    ]);
    expect(both.sort()).toEqual(["CONFLICT", "ok"]);
    expect(await deps.db.member.count({ where: { userId: cat.userId } })).toBe(1);
  });
});

describe("sign-up by invitation", () => {
  it("with ALLOW_SIGNUP off, only an invited address can create an account", async () => {
    const closed = createAuth({ ...deps, config: { ...deps.config, ALLOW_SIGNUP: false } });
    const signUpClosed = (email: string) =>
      closed.api.signUpEmail({ body: { email, name: "Ivy", password: "correct horse battery" } }).then(
        () => "ok",
        (e: unknown) => (e as { body?: { code?: string } }).body?.code ?? String(e),
      );
    expect(await signUpClosed(`uninvited-${randomUUID()}@example.test`)).toBe(
      "EMAIL_PASSWORD_SIGN_UP_DISABLED",
    );

    const { owner } = await orgWithOwner();
    const email = `invited-${randomUUID()}@example.test`;
    const { invitation } = await (await owner.caller()).member.invite({ email, role: "viewer" });
    expect(await signUpClosed(email.toUpperCase())).toBe("ok");
    expect(await deps.db.user.count({ where: { email } })).toBe(1);

    // A revoked invitation opens nothing.
    const other = `revoked-${randomUUID()}@example.test`;
    const second = await (await owner.caller()).member.invite({ email: other, role: "viewer" });
    await (await owner.caller()).member.revokeInvitation({ invitationId: second.invitation.id });
    expect(await signUpClosed(other)).toBe("EMAIL_PASSWORD_SIGN_UP_DISABLED");
    expect(invitation.email).toBe(email);
  });
});

describe("better-auth's organization endpoints", () => {
  const limiter = createAuthLimiter(deps);
  const handle = createAuthHandler({ handle: auth.handler, limiter, trustedHops: 0 });
  const post = (path: string, who: Person, body: unknown) =>
    handle(
      new Request(`${deps.config.PUBLIC_URL.replace(/\/$/, "")}/api/auth${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: new URL(deps.config.PUBLIC_URL).origin,
          cookie: who.headers.get("cookie")!,
          "x-breakwater-peer": "127.0.0.1",
        },
        body: JSON.stringify(body),
      }),
    );

  it("answer 404 to a signed-in browser, so every change goes through the audited procedures", async () => {
    const { owner, org } = await orgWithOwner();
    const bob = await signUp("Bob");
    const bobId = await join(owner, bob, "member");
    const ownerId = (
      await deps.db.member.findFirstOrThrow({ where: { organizationId: org.id, userId: owner.userId } })
    ).id;
    const before = await deps.db.auditEvent.count({ where: { organizationId: org.id } });

    // The session itself works over HTTP (so a 404 below is the block, not a broken request).
    const session = await handle(
      new Request(`${deps.config.PUBLIC_URL.replace(/\/$/, "")}/api/auth/get-session`, {
        headers: { cookie: owner.headers.get("cookie")!, "x-breakwater-peer": "127.0.0.1" },
      }),
    );
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(owner.userId);

    const attempts: [string, unknown][] = [
      [
        "/organization/invite-member",
        { email: `x-${randomUUID()}@example.test`, role: "owner", organizationId: org.id },
      ],
      [
        "/organization/invite-member/",
        { email: `y-${randomUUID()}@example.test`, role: "admin", organizationId: org.id },
      ],
      ["/organization/update-member-role", { memberId: bobId, role: "owner", organizationId: org.id }],
      ["/organization/remove-member", { memberIdOrEmail: ownerId, organizationId: org.id }],
      ["/organization/remove-member", { memberIdOrEmail: bobId, organizationId: org.id }],
      ["/organization/accept-invitation", { invitationId: "inv_000000000000000000000000" }],
      ["/organization/cancel-invitation", { invitationId: "inv_000000000000000000000000" }],
      ["/organization/leave", { organizationId: org.id }],
      ["/organization/update", { organizationId: org.id, data: { name: "Renamed" } }],
      ["/organization/delete", { organizationId: org.id }],
      ["/organization/create", { name: "Sneaky", slug: `sneaky-${randomUUID()}` }],
    ];
    for (const [path, body] of attempts) {
      const res = await post(path, owner, body);
      expect(`${path} → ${res.status}`).toBe(`${path} → 404`);
    }
    const res = await post("/organization/remove-member", bob, {
      memberIdOrEmail: ownerId,
      organizationId: org.id,
    });
    expect(res.status).toBe(404);

    // Nothing changed behind the audit's back.
    const members = await deps.db.member.findMany({
      where: { organizationId: org.id },
      orderBy: { createdAt: "asc" },
    });
    expect(members.map((m) => [m.id, m.role])).toEqual([
      [ownerId, "owner"],
      [bobId, "member"],
    ]);
    expect(await deps.db.invitation.count({ where: { organizationId: org.id, status: "pending" } })).toBe(0);
    expect((await deps.db.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe("Members");
    expect(await deps.db.auditEvent.count({ where: { organizationId: org.id } })).toBe(before);
  });
});
