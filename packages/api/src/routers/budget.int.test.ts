import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { fieldErrorsOf } from "../errors";
import { apiTestEnv, codeOf } from "../testing";

const { deps, auth, signUp, close } = apiTestEnv("api-budget-test");
afterAll(close);

/** The per-field messages a refused call carries to the form. */
async function fieldErrors(p: Promise<unknown>): Promise<Record<string, string>> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  expect((err as TRPCError).code).toBe("BAD_REQUEST");
  return fieldErrorsOf((err as TRPCError).cause) ?? {};
}

describe("budget and run procedures", () => {
  it("refuse bad input with a message per field, and write nothing", async () => {
    const owner = await signUp("Bea");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Budgets" });
    const project = await asOwner.project.create({ name: "svc", limits: { monthly: 50 } });
    const base = {
      projectId: project.id,
      mode: "hard_deny" as const,
      limits: { daily: null, weekly: null, monthly: 50 },
      thresholds: [50, 80, 100],
      runSpendCapUsd: null,
    };

    expect(
      await fieldErrors(asOwner.budget.update({ ...base, limits: { daily: 0, weekly: -1, monthly: 50 } })),
    ).toMatchObject({ "limits.daily": "Must be greater than 0", "limits.weekly": "Must be greater than 0" });
    expect(
      await fieldErrors(
        asOwner.budget.update({ ...base, limits: { daily: null, weekly: null, monthly: null } }),
      ),
    ).toMatchObject({ limits: "Keep at least one period limit (daily, weekly or monthly)" });
    expect(await fieldErrors(asOwner.budget.update({ ...base, thresholds: [50, 1001] }))).toMatchObject({
      "thresholds.1": "Thresholds must be between 1 and 1000 %",
    });
    expect(await fieldErrors(asOwner.budget.update({ ...base, thresholds: [0] }))).toMatchObject({
      "thresholds.0": "Thresholds must be between 1 and 1000 %",
    });
    expect(await fieldErrors(asOwner.budget.update({ ...base, runSpendCapUsd: 0 }))).toMatchObject({
      runSpendCapUsd: "Must be greater than 0",
    });
    expect(
      await fieldErrors(
        asOwner.budget.saveTagRule({
          projectId: project.id,
          name: "no selector",
          selector: {},
          period: "daily",
          limitUsd: 5,
        }),
      ),
    ).toMatchObject({ selector: "Add at least one selector tag (name=value)" });

    expect(await asOwner.budget.settings({ projectId: project.id })).toMatchObject({
      mode: "alert_only",
      limits: { daily: null, weekly: null, monthly: 50 },
      thresholds: [50, 80, 100],
      runSpendCapUsd: null,
      tagRules: [],
    });
    expect(
      await deps.db.auditEvent.count({ where: { organizationId: org.id, targetType: { in: ["tag_rule"] } } }),
    ).toBe(0);
  });

  it("let viewers read settings and runs but refuse their writes (FORBIDDEN)", async () => {
    const owner = await signUp("Ola");
    const viewer = await signUp("Vern");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Read only" });
    const project = await asOwner.project.create({ name: "api", limits: { monthly: 10 } });
    await auth.api.addMember({ body: { userId: viewer.userId, organizationId: org.id, role: "viewer" } });
    const asViewer = await viewer.caller();

    expect((await asViewer.budget.settings({ projectId: project.id })).limits.monthly).toBe(10);
    expect(await asViewer.run.list({ projectId: project.id })).toEqual({ runs: [], nextCursor: null });
    const write = {
      projectId: project.id,
      mode: "hard_deny" as const,
      limits: { daily: null, weekly: null, monthly: 20 },
      thresholds: [80],
      runSpendCapUsd: null,
    };
    expect(await codeOf(asViewer.budget.update(write))).toBe("FORBIDDEN");
    expect(
      await codeOf(
        asViewer.budget.saveTagRule({
          projectId: project.id,
          name: "r",
          selector: { team: "a" },
          period: "daily",
          limitUsd: 1,
        }),
      ),
    ).toBe("FORBIDDEN");
    expect(await codeOf(asViewer.run.stop({ projectId: project.id, agentRunId: "run-1" }))).toBe("FORBIDDEN");
    expect((await asOwner.budget.settings({ projectId: project.id })).limits.monthly).toBe(10);

    // An outsider cannot even learn the project exists.
    const outsider = await signUp("Otto");
    const asOutsider = await outsider.caller();
    await asOutsider.organization.create({ name: "Elsewhere" });
    expect(await codeOf(asOutsider.budget.settings({ projectId: project.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asOutsider.run.list({ projectId: project.id }))).toBe("NOT_FOUND");
  });

  it("page runs by last activity with a keyset cursor, and stop/resume them", async () => {
    const owner = await signUp("Pia");
    const asOwner = await owner.caller();
    await asOwner.organization.create({ name: "Runs" });
    const project = await asOwner.project.create({ name: "agents", limits: { monthly: 10 } });
    const t0 = Date.UTC(2026, 10, 30, 12);
    await deps.db.agentRun.createMany({
      data: Array.from({ length: 5 }, (_, i) => ({
        projectId: project.id,
        agentRunId: `run-${i}`,
        parentAgentRunId: i > 0 ? "run-0" : null,
        lastSeenAt: new Date(t0 + (i % 3) * 1000), // ties on last_seen_at: the id breaks them
        callCount: i + 1,
        costUsd: "0.25",
      })),
    });
    const first = await asOwner.run.list({ projectId: project.id, limit: 2 });
    const second = await asOwner.run.list({ projectId: project.id, limit: 2, cursor: first.nextCursor });
    const third = await asOwner.run.list({ projectId: project.id, limit: 2, cursor: second.nextCursor });
    const ids = [...first.runs, ...second.runs, ...third.runs].map((r) => r.agentRunId);
    expect(ids).toEqual(["run-2", "run-4", "run-1", "run-3", "run-0"]);
    expect(third.nextCursor).toBeNull();
    expect(first.runs[0]).toMatchObject({
      parentAgentRunId: "run-0",
      callCount: 3,
      costUsd: 0.25,
      stopped: false,
    });

    await asOwner.run.stop({ projectId: project.id, agentRunId: "run-3", reason: "loop" });
    expect(await asOwner.run.get({ projectId: project.id, agentRunId: "run-3" })).toMatchObject({
      stopped: true,
      stopReason: "loop",
    });
    await asOwner.run.resume({ projectId: project.id, agentRunId: "run-3" });
    expect((await asOwner.run.get({ projectId: project.id, agentRunId: "run-3" })).stopped).toBe(false);
    expect(await codeOf(asOwner.run.get({ projectId: project.id, agentRunId: "nope" }))).toBe("NOT_FOUND");
  });
});
