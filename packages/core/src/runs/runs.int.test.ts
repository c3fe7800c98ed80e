import { afterAll, describe, expect, it, vi } from "vitest";
import type { BudgetDeps } from "../budgets/budget-deps";
import { checkBudget } from "../budgets/check-budget";
import { InvalidationBus } from "../cache/invalidating-cache";
import type { Ctx } from "../context";
import { budgetTestEnv, DOLLAR_MODEL, deleteProjectKeys, makeProject } from "../testing/budgets";
import { resumeAgentRun } from "./resume-agent-run";
import { stopAgentRun } from "./stop-agent-run";

const env = budgetTestEnv();
const projects: string[] = [];
afterAll(async () => {
  for (const p of projects) await deleteProjectKeys(env.redis, p);
  await env.close();
});

function userCtx(organizationId: string, role: Ctx["role"]): Ctx {
  return {
    db: env.db,
    config: env.config,
    log: env.deps.log,
    actor: { type: "user", userId: "user_runs_test", isOperator: false },
    organizationId,
    role,
  };
}

function check(projectId: string, agentRunId?: string, deps: BudgetDeps = env.deps) {
  return checkBudget(deps, {
    projectId,
    ...DOLLAR_MODEL,
    estimatedInputTokens: 1,
    fallbackProviders: [],
    fallbackModels: [],
    modality: "text",
    agentRunId,
    uncountedCalls: 0,
    uncountedTokens: 0,
  });
}

describe("stopping and resuming agent runs", () => {
  it("makes the next check for that run answer run_stopped (hard_deny even on alert_only), other runs unaffected", async () => {
    const { org, projectId } = await makeProject(env, { mode: "alert_only", limits: { monthly: 100 } });
    projects.push(projectId);
    expect((await check(projectId, "agent-7")).allowed).toBe(true); // runtime now cached

    const member = userCtx(org.id, "member");
    const stopped = await stopAgentRun(member, { projectId, agentRunId: "agent-7", reason: "runaway loop" });
    expect(stopped).toMatchObject({ agentRunId: "agent-7", stopped: true, stopReason: "runaway loop" });

    expect(await check(projectId, "agent-7")).toMatchObject({
      allowed: false,
      mode: "hard_deny",
      deniedByPeriod: "run_stopped",
      remainingBudget: 0,
      reservationId: null,
      runControl: { reason: "runaway loop" },
      budgetLimit: 100,
    });
    expect(await check(projectId, "agent-8")).toMatchObject({ allowed: true, runControl: null });
    expect(await check(projectId)).toMatchObject({ allowed: true, runControl: null });

    // Stopping again keeps the first stop (idempotent, one audit row).
    await stopAgentRun(member, { projectId, agentRunId: "agent-7", reason: "other" });
    expect((await check(projectId, "agent-7")).runControl).toEqual({ reason: "runaway loop" });

    const resumed = await resumeAgentRun(member, { projectId, agentRunId: "agent-7" });
    expect(resumed).toMatchObject({ stopped: false, stopReason: null });
    expect(await check(projectId, "agent-7")).toMatchObject({
      allowed: true,
      runControl: null,
      deniedByPeriod: null,
    });

    const audits = await env.db.auditEvent.findMany({
      where: { organizationId: org.id, targetType: "agent_run" },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => [a.action, a.actorId])).toEqual([
      ["agent_run.stop", "user_runs_test"],
      ["agent_run.resume", "user_runs_test"],
    ]);
    expect(audits[0]!.after).toEqual({ stopped: true, reason: "runaway loop" });
  });

  it("uses manual_kill as the default reason and stops runs never seen before", async () => {
    const { org, projectId } = await makeProject(env, { mode: "hard_deny" });
    projects.push(projectId);
    await stopAgentRun(userCtx(org.id, "admin"), { projectId, agentRunId: "never-seen" });
    expect((await check(projectId, "never-seen")).runControl).toEqual({ reason: "manual_kill" });
  });

  it("reaches another replica's cache through pub/sub within a second", async () => {
    const { org, projectId } = await makeProject(env, { mode: "hard_deny" });
    projects.push(projectId);
    // "Replica B": its own runtime cache, fed by its own bus subscription.
    const bus = InvalidationBus.fromTarget(env.config);
    await bus.start();
    const replicaB: BudgetDeps = { ...env.deps, bus };
    try {
      expect((await check(projectId, "shared-run", replicaB)).allowed).toBe(true);
      // "Replica A" (the dashboard) stops the run; its context only carries a Redis client.
      const stoppedAt = Date.now();
      await stopAgentRun(
        { ...userCtx(org.id, "member"), redis: env.redis },
        { projectId, agentRunId: "shared-run" },
      );
      await vi.waitFor(
        async () =>
          expect(await check(projectId, "shared-run", replicaB)).toMatchObject({
            allowed: false,
            deniedByPeriod: "run_stopped",
          }),
        { timeout: 1_000, interval: 10 },
      );
      expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    } finally {
      await bus.stop();
    }
  });

  it("needs the member role and hides other tenants' projects", async () => {
    const { org, projectId } = await makeProject(env);
    const other = await makeProject(env);
    projects.push(projectId, other.projectId);
    await expect(
      stopAgentRun(userCtx(org.id, "viewer"), { projectId, agentRunId: "r" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      stopAgentRun(userCtx(other.org.id, "owner"), { projectId, agentRunId: "r" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      stopAgentRun(userCtx(org.id, "member"), { projectId, agentRunId: "r", reason: "x".repeat(65) }),
    ).rejects.toThrow();
    expect(await env.db.agentRun.count({ where: { projectId } })).toBe(0);
  });
});
