import { applyAuditRetention, newId, recordAudit } from "@breakwater/core";
import { afterAll, describe, expect, it } from "vitest";
import { apiTestEnv, codeOf } from "../testing";

const { deps, signUp, close } = apiTestEnv("api-audit-test");
afterAll(close);

const DAY = 86_400_000;

/** Writes an audit row as `userId` at a given time (the log's own clock is the row's created_at). */
async function auditAt(organizationId: string, userId: string, action: string, at: Date) {
  const id = newId("aud", at.getTime());
  await deps.db.auditEvent.create({
    data: {
      id,
      organizationId,
      actorType: "user",
      actorId: userId,
      action,
      targetType: action.split(".")[0]!,
      targetId: "x",
      after: { n: action },
      createdAt: at,
    },
  });
  return id;
}

describe("audit log", () => {
  it("lists newest first with actor, before/after; filters by actor, kind and dates; pages by keyset", async () => {
    const owner = await signUp("Olga");
    const bob = await signUp("Bob");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Audited" });
    const { url } = await asOwner.member.invite({ email: bob.email, role: "admin" });
    const { memberId } = await (await bob.caller()).invitation.accept({ token: url.split("/invite/")[1]! });
    await asOwner.member.changeRole({ memberId, role: "viewer" });

    const page = await asOwner.audit.list({});
    expect(page.retentionDays).toBe(7); // the free plan's audit_log_days
    expect(page.events.map((e) => [e.action, e.actor.name])).toEqual([
      ["member.update_role", "Olga"],
      ["invitation.accept", "Bob"],
      ["invitation.create", "Olga"],
      ["organization.create", "Olga"],
    ]);
    expect(page.events[0]).toMatchObject({
      actor: { type: "user", id: owner.userId, email: owner.email },
      targetType: "member",
      before: { role: "admin", email: bob.email },
      after: { role: "viewer", email: bob.email },
    });
    expect(page.nextCursor).toBeNull();

    expect((await asOwner.audit.list({ kind: "invitation" })).events.map((e) => e.action)).toEqual([
      "invitation.accept",
      "invitation.create",
    ]);
    expect((await asOwner.audit.list({ kind: "member" })).events.map((e) => e.action)).toEqual([
      "member.update_role",
    ]);
    expect((await asOwner.audit.list({ actorId: bob.userId })).events.map((e) => e.action)).toEqual([
      "invitation.accept",
    ]);
    const filters = await asOwner.audit.filters();
    expect(filters.kinds).toEqual(["invitation", "member", "organization"]);
    expect(filters.actors.map((a) => a.id).sort()).toEqual([owner.userId, bob.userId].sort());

    // Older rows, within the plan's 7 days: keyset pages of 2 walk everything exactly once.
    const now = Date.now();
    for (let i = 1; i <= 5; i++)
      await auditAt(org.id, owner.userId, `project.update_${i}`, new Date(now - i * 3600_000));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const p = await asOwner.audit.list({ limit: 2, cursor });
      seen.push(...p.events.map((e) => e.id));
      if (!p.nextCursor) break;
      cursor = p.nextCursor;
    }
    expect(seen).toHaveLength(9);
    expect(new Set(seen).size).toBe(9);
    const ranged = await asOwner.audit.list({
      from: new Date(now - 3.5 * 3600_000),
      to: new Date(now - 1.5 * 3600_000),
    });
    expect(ranged.events.map((e) => e.action)).toEqual(["project.update_2", "project.update_3"]);
    expect(await codeOf(asOwner.audit.list({ from: new Date(now), to: new Date(now - DAY) }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(asOwner.audit.list({ cursor: "garbage" }))).toBe("BAD_REQUEST");

    // Beyond audit_log_days an event is not shown, even before the retention job deletes it.
    await auditAt(org.id, owner.userId, "project.ancient", new Date(now - 8 * DAY));
    expect((await asOwner.audit.list({ limit: 100 })).events.map((e) => e.action)).not.toContain(
      "project.ancient",
    );

    // Another organization's log is not the caller's.
    const stranger = await signUp("Stan");
    await (await stranger.caller()).organization.create({ name: "Other" });
    expect((await (await stranger.caller()).audit.list({})).events.map((e) => e.action)).toEqual([
      "organization.create",
    ]);
  });

  it("retention deletes rows older than each organization's effective audit_log_days, in batches", async () => {
    const a = await signUp("Ann");
    const b = await signUp("Ben");
    const orgFree = await (await a.caller()).organization.create({ name: "Free audit" });
    const orgTeam = await (await b.caller()).organization.create({ name: "Team audit" });
    const team = await deps.db.plan.findUniqueOrThrow({ where: { slug: "team" } });
    await deps.db.subscription.update({ where: { organizationId: orgTeam.id }, data: { planId: team.id } });

    const now = new Date();
    const ages = [1, 6, 8, 30, 89, 91, 400];
    for (const org of [orgFree, orgTeam]) {
      for (const d of ages)
        await auditAt(org.id, a.userId, `project.age_${d}`, new Date(now.getTime() - d * DAY));
    }
    // Operator history without an organization is kept.
    const operatorRow = newId("aud", now.getTime() - 900 * DAY);
    await deps.db.$transaction((tx) =>
      recordAudit(
        tx,
        { type: "system", name: "test" },
        {
          organizationId: null,
          action: "plan.update",
          targetType: "plan",
          targetId: operatorRow,
        },
      ),
    );
    await deps.db.auditEvent.updateMany({
      where: { targetId: operatorRow },
      data: { createdAt: new Date(now.getTime() - 900 * DAY) },
    });

    // A stopping worker starts no organization; the next run does the work.
    expect(
      await applyAuditRetention(deps, {
        now,
        organizationIds: [orgFree.id, orgTeam.id],
        signal: AbortSignal.abort(),
      }),
    ).toEqual({ organizations: 0, deleted: 0 });
    const run = await applyAuditRetention(deps, {
      now,
      batchSize: 2,
      organizationIds: [orgFree.id, orgTeam.id],
    });
    expect(run).toEqual({ organizations: 2, deleted: 5 + 2 });
    const left = async (orgId: string) =>
      (
        await deps.db.auditEvent.findMany({
          where: { organizationId: orgId, action: { startsWith: "project.age_" } },
        })
      )
        .map((r) => Number(r.action.split("_").at(-1)))
        .sort((x, y) => x - y);
    expect(await left(orgFree.id)).toEqual([1, 6]); // free: 7 days
    expect(await left(orgTeam.id)).toEqual([1, 6, 8, 30, 89]); // team: 90 days
    expect(await deps.db.auditEvent.count({ where: { targetId: operatorRow } })).toBe(1);
    // The organizations' own creation rows (today) survive; a second run has nothing left to do.
    expect(
      await deps.db.auditEvent.count({
        where: { organizationId: orgFree.id, action: "organization.create" },
      }),
    ).toBe(1);
    expect(await applyAuditRetention(deps, { now, organizationIds: [orgFree.id, orgTeam.id] })).toEqual({
      organizations: 2,
      deleted: 0,
    });
    // An override of audit_log_days applies too (effective value, not the plan's).
    await deps.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: orgTeam.id,
        featureKey: "audit_log_days",
        value: 7,
        reason: "test",
      },
    });
    await applyAuditRetention(deps, { now, organizationIds: [orgTeam.id] });
    expect(await left(orgTeam.id)).toEqual([1, 6]);
  });
});
