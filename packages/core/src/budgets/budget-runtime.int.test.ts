import type { PrismaClient } from "@breakwater/db";
import { afterAll, describe, expect, it } from "vitest";
import { notFound } from "../errors";
import { newId } from "../ids";
import { budgetTestEnv, makeProject } from "../testing/budgets";
import {
  DEFAULT_STOP_REASON,
  loadProjectBudgetRuntime,
  type ProjectBudgetRuntime,
  parseSelector,
  type TagRuleRuntime,
} from "./budget-runtime";
import { usdToNanos } from "./money";
import type { Period } from "./windows";

const env = budgetTestEnv();
afterAll(() => env.close());

/** The same read through Prisma's relations: the oracle the one-statement loader must match. */
async function viaPrisma(db: PrismaClient, projectId: string): Promise<ProjectBudgetRuntime> {
  const project = await db.project.findUnique({
    where: { id: projectId },
    include: {
      budgetLimits: true,
      tagRules: { where: { enabled: true }, orderBy: { createdAt: "asc" } },
      agentRuns: { where: { stoppedAt: { not: null } }, select: { agentRunId: true, stopReason: true } },
    },
  });
  if (!project) throw notFound("Project");
  const limits: Record<Period, bigint | null> = { daily: null, weekly: null, monthly: null };
  for (const l of project.budgetLimits) limits[l.period] = usdToNanos(l.limitUsd.toString());
  const tagRules: TagRuleRuntime[] = [];
  for (const r of project.tagRules) {
    const selector = parseSelector(r.selector);
    if (!selector) continue;
    tagRules.push({
      id: r.id,
      ref: `${r.id}@${r.updatedAt.getTime().toString(36)}`,
      period: r.period,
      limitNanos: usdToNanos(r.limitUsd.toString()),
      selector,
    });
  }
  return {
    projectId: project.id,
    organizationId: project.organizationId,
    mode: project.mode,
    limits,
    runSpendCapNanos: project.runSpendCapUsd === null ? null : usdToNanos(project.runSpendCapUsd.toString()),
    tagRules,
    stoppedRuns: new Map(project.agentRuns.map((r) => [r.agentRunId, r.stopReason || DEFAULT_STOP_REASON])),
    thresholds: [...new Set(project.alertThresholds)].sort((a, b) => a - b),
  };
}

describe("loadProjectBudgetRuntime", () => {
  it("reads exactly what the relations hold: limits, run cap, enabled rules in order, stopped runs", async () => {
    const { projectId } = await makeProject(env, {
      mode: "hard_deny",
      limits: { daily: 0.0000001, weekly: 12.5, monthly: 1_000_000 },
      runCapUsd: 0.25,
      tagRules: [
        { selector: { team: "search" }, period: "daily", limitUsd: 3 },
        { selector: { team: "ads", feature: "rerank" }, period: "monthly", limitUsd: 0.0000003 },
        { selector: { team: "off" }, period: "weekly", limitUsd: 1 },
      ],
    });
    // A disabled rule, a rule whose selector is not flat, an edited rule (new version), runs.
    const rules = await env.db.tagRule.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
    await env.db.tagRule.update({ where: { id: rules[2]!.id }, data: { enabled: false } });
    await env.db.tagRule.create({
      data: {
        id: newId("tagr"),
        projectId,
        name: "nested",
        selector: { team: { not: "flat" } },
        period: "daily",
        limitUsd: "1",
      },
    });
    await env.db.tagRule.update({ where: { id: rules[0]!.id }, data: { limitUsd: "4" } });
    const now = new Date();
    await env.db.agentRun.createMany({
      data: [
        { projectId, agentRunId: "run-stopped", stoppedAt: now, stopReason: "budget_exhausted" },
        { projectId, agentRunId: "run-no-reason", stoppedAt: now },
        { projectId, agentRunId: "run-live" },
      ],
    });

    const loaded = await loadProjectBudgetRuntime(env.db, projectId);
    expect(loaded).toEqual(await viaPrisma(env.db, projectId));
    expect(loaded.limits).toEqual({ daily: 100n, weekly: 12_500_000_000n, monthly: 1_000_000_000_000_000n });
    expect(loaded.runSpendCapNanos).toBe(250_000_000n);
    expect(loaded.tagRules.map((r) => r.limitNanos)).toEqual([4_000_000_000n, 300n]);
    expect(loaded.stoppedRuns).toEqual(
      new Map([
        ["run-stopped", "budget_exhausted"],
        ["run-no-reason", DEFAULT_STOP_REASON],
      ]),
    );
  });

  it("reads a project without limits, cap, rules or runs", async () => {
    const { projectId } = await makeProject(env);
    await env.db.budgetLimit.deleteMany({ where: { projectId } });
    const loaded = await loadProjectBudgetRuntime(env.db, projectId);
    expect(loaded).toEqual(await viaPrisma(env.db, projectId));
    expect(loaded).toMatchObject({ mode: "alert_only", runSpendCapNanos: null, tagRules: [] });
  });

  it("answers NOT_FOUND for an unknown project", async () => {
    await expect(loadProjectBudgetRuntime(env.db, newId("proj"))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
