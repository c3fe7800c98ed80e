import { afterAll, describe, expect, it, vi } from "vitest";
import { InvalidationBus } from "../cache/invalidating-cache";
import type { Ctx } from "../context";
import { budgetTestEnv, callId, DOLLAR_MODEL, deleteProjectKeys, makeProject } from "../testing/budgets";
import type { BudgetDeps } from "./budget-deps";
import { checkBudget } from "./check-budget";
import { confirmSpend } from "./confirm-spend";
import { deleteTagRule } from "./delete-tag-rule";
import { evaluateBudgetThresholds, forgetFiredThresholds } from "./evaluate-budget-thresholds";
import { saveTagRule } from "./save-tag-rule";
import { updateBudgetSettings } from "./update-budget-settings";
import { currentWindows } from "./windows";

const env = budgetTestEnv();
const projects: string[] = [];
afterAll(async () => {
  for (const p of projects) await deleteProjectKeys(env.redis, p);
  await env.close();
});

const ZERO_TOKENS = {
  input_tokens: 0,
  output_tokens: 0,
  cached_input_tokens: 0,
  cache_creation_5m_tokens: 0,
  cache_creation_1h_tokens: 0,
  reasoning_tokens: 0,
  audio_input_tokens: 0,
  audio_output_tokens: 0,
  image_input_tokens: 0,
  image_output_tokens: 0,
  accepted_prediction_tokens: 0,
  rejected_prediction_tokens: 0,
  tool_use_input_tokens: 0,
};

/** A dashboard user's context: config only, no Redis client (as the web process has). */
function userCtx(organizationId: string, role: Ctx["role"]): Ctx {
  return {
    db: env.db,
    config: env.config,
    log: env.deps.log,
    actor: { type: "user", userId: "user_settings_test", isOperator: false },
    organizationId,
    role,
  };
}

async function project(opts: Parameters<typeof makeProject>[1] = {}) {
  const p = await makeProject(env, opts);
  projects.push(p.projectId);
  return p;
}

function check(projectId: string, deps: BudgetDeps = env.deps, extra: Record<string, unknown> = {}) {
  return checkBudget(deps, {
    projectId,
    ...DOLLAR_MODEL,
    estimatedInputTokens: 1,
    fallbackProviders: [],
    fallbackModels: [],
    modality: "text",
    uncountedCalls: 0,
    uncountedTokens: 0,
    ...extra,
  });
}

/** Spends `usd` whole dollars through a real check + confirm (input tokens at $1 each). */
async function spend(projectId: string, usd: number) {
  const r = await check(projectId);
  expect(r.allowed).toBe(true);
  await confirmSpend(env.deps, {
    projectId,
    reservationId: r.reservationId!,
    callId: callId(),
    ...DOLLAR_MODEL,
    modality: "text",
    tokenDetails: { ...ZERO_TOKENS, input_tokens: usd },
  });
}

const settings = (over: Record<string, unknown> = {}) => ({
  mode: "hard_deny" as const,
  limits: { daily: null, weekly: null, monthly: 100 },
  thresholds: [50, 80, 100],
  runSpendCapUsd: null,
  ...over,
});

describe("budget settings", () => {
  it("refuses bad input whole: limits ≤ 0, no limit left, thresholds outside 1–1000 %, run cap ≤ 0", async () => {
    const { org, projectId } = await project({ mode: "alert_only", limits: { monthly: 100 } });
    const member = userCtx(org.id, "member");
    const bad = [
      settings({ limits: { daily: 0, weekly: null, monthly: 100 } }),
      settings({ limits: { daily: null, weekly: -5, monthly: 100 } }),
      settings({ limits: { daily: null, weekly: null, monthly: null } }),
      settings({ thresholds: [0, 80] }),
      settings({ thresholds: [50, 1001] }),
      settings({ thresholds: [50.5] }),
      settings({ runSpendCapUsd: 0 }),
      settings({ mode: "hard_deny", limits: { daily: null, weekly: null, monthly: Number.NaN } }),
    ];
    for (const input of bad) {
      await expect(updateBudgetSettings(member, { projectId, ...input } as never)).rejects.toThrow();
    }
    await expect(
      saveTagRule(member, { projectId, name: "r", selector: {}, period: "daily", limitUsd: 5 }),
    ).rejects.toThrow(/at least one selector tag/);
    await expect(
      saveTagRule(member, { projectId, name: "r", selector: { team: "a" }, period: "daily", limitUsd: 0 }),
    ).rejects.toThrow();
    // Nothing half-written: the project is as created, and no audit row beyond its creation.
    const row = await env.db.project.findUniqueOrThrow({
      where: { id: projectId },
      include: { budgetLimits: true },
    });
    expect(row.mode).toBe("alert_only");
    expect(row.runSpendCapUsd).toBeNull();
    expect(row.budgetLimits.map((l) => [l.period, Number(l.limitUsd)])).toEqual([["monthly", 100]]);
    expect(await env.db.tagRule.count({ where: { projectId } })).toBe(0);
    expect(
      await env.db.auditEvent.count({ where: { organizationId: org.id, actorId: "user_settings_test" } }),
    ).toBe(0);
  });

  it("writes every change with an audit row (before/after) and needs the member role", async () => {
    const { org, projectId } = await project({ mode: "alert_only", limits: { monthly: 100 } });
    await expect(
      updateBudgetSettings(userCtx(org.id, "viewer"), { projectId, ...settings() }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const other = await project();
    await expect(
      updateBudgetSettings(userCtx(other.org.id, "owner"), { projectId, ...settings() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    const member = userCtx(org.id, "member");
    const after = await updateBudgetSettings(member, {
      projectId,
      ...settings({
        limits: { daily: 5, weekly: null, monthly: 80 },
        thresholds: [100, 50, 50],
        runSpendCapUsd: 2.5,
      }),
    });
    expect(after).toMatchObject({
      mode: "hard_deny",
      limits: { daily: 5, weekly: null, monthly: 80 },
      thresholds: [50, 100],
      runSpendCapUsd: 2.5,
    });
    const rule = await saveTagRule(member, {
      projectId,
      name: "search team",
      selector: { team: "search" },
      period: "daily",
      limitUsd: 3,
    });
    await saveTagRule(member, {
      projectId,
      ruleId: rule.id,
      name: "search",
      selector: { team: "search" },
      period: "weekly",
      limitUsd: 4,
      enabled: false,
    });
    await deleteTagRule(member, { projectId, ruleId: rule.id });

    const audits = await env.db.auditEvent.findMany({
      where: { organizationId: org.id, actorId: "user_settings_test" },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => [a.action, a.actorId])).toEqual([
      ["budget_settings.update", "user_settings_test"],
      ["tag_rule.create", "user_settings_test"],
      ["tag_rule.update", "user_settings_test"],
      ["tag_rule.delete", "user_settings_test"],
    ]);
    expect(audits[0]!.before).toEqual({
      mode: "alert_only",
      limits: { daily: null, weekly: null, monthly: 100 },
      thresholds: [50, 80, 100],
      runSpendCapUsd: null,
    });
    expect(audits[0]!.after).toEqual({
      mode: "hard_deny",
      limits: { daily: 5, weekly: null, monthly: 80 },
      thresholds: [50, 100],
      runSpendCapUsd: 2.5,
    });
    expect(audits[2]!.before).toMatchObject({ period: "daily", limitUsd: 3, enabled: true });
    expect(audits[2]!.after).toMatchObject({ period: "weekly", limitUsd: 4, enabled: false });
    expect(audits[3]!.after).toBeNull();
  });

  it("reaches another replica's budget check within a second (the dashboard has no Redis client of its own)", async () => {
    const { org, projectId } = await project({ mode: "hard_deny", limits: { monthly: 100 } });
    const bus = InvalidationBus.fromTarget(env.config);
    await bus.start();
    const replicaB: BudgetDeps = { ...env.deps, bus };
    try {
      await spend(projectId, 10);
      expect((await check(projectId, replicaB)).allowed).toBe(true); // runtime now cached on B
      const changedAt = Date.now();
      await updateBudgetSettings(userCtx(org.id, "member"), {
        projectId,
        ...settings({ limits: { daily: null, weekly: null, monthly: 8 } }),
      });
      await vi.waitFor(
        async () =>
          expect(await check(projectId, replicaB)).toMatchObject({
            allowed: false,
            deniedByPeriod: "monthly",
            budgetLimit: 8,
          }),
        { timeout: 1_000, interval: 10 },
      );
      expect(Date.now() - changedAt).toBeLessThan(1_000);
    } finally {
      await bus.stop();
    }
  });
});

describe("budget threshold alerts", () => {
  it("fire once per (period, window, percent) even when many recorders evaluate at once", async () => {
    const { org, projectId } = await project({ mode: "alert_only", limits: { daily: 1000, monthly: 100 } });
    await env.db.project.update({ where: { id: projectId }, data: { alertThresholds: [50, 80, 100] } });
    await spend(projectId, 40); // 40 % of the month: nothing yet
    expect(await evaluateBudgetThresholds(env.deps, projectId)).toEqual([]);

    await spend(projectId, 40); // 80 %
    // Eight "replicas" at once: each forgets what its process knew, so every one reaches Postgres.
    const results = await Promise.all(
      Array.from({ length: 8 }, async () => {
        forgetFiredThresholds();
        return evaluateBudgetThresholds(env.deps, projectId);
      }),
    );
    const fired = results.flat();
    expect(fired.map((f) => [f.period, f.percent]).sort()).toEqual([
      ["monthly", 50],
      ["monthly", 80],
    ]);
    forgetFiredThresholds();
    expect(await evaluateBudgetThresholds(env.deps, projectId)).toEqual([]);

    const month = currentWindows(new Date()).monthly;
    const alerts = await env.db.budgetThresholdAlert.findMany({
      where: { projectId },
      orderBy: { percent: "asc" },
    });
    expect(alerts.map((a) => [a.period, a.windowKey, a.percent])).toEqual([
      ["monthly", month.key, 50],
      ["monthly", month.key, 80],
    ]);
    const events = await env.db.webhookEvent.findMany({
      where: { projectId, type: "budget_threshold_crossed" },
      include: { outbox: true },
    });
    expect(events).toHaveLength(2);
    const eighty = events.find(
      (e) => (e.payload as { data: { threshold_percent: number } }).data.threshold_percent === 80,
    )!;
    expect(eighty.deliverable).toBe(true); // business plan
    expect(eighty.outbox).not.toBeNull();
    expect(eighty.organizationId).toBe(org.id);
    expect(eighty.payload).toMatchObject({
      type: "budget_threshold_crossed",
      data: {
        event_id: eighty.id,
        project_id: projectId,
        period: "monthly",
        window_start: month.start.toISOString(),
        window_end: month.end.toISOString(),
        threshold_percent: 80,
        limit_usd: 100,
        spent_usd: 80,
        mode: "alert_only",
        dashboard_url: `${env.config.PUBLIC_URL.replace(/\/+$/, "")}/projects/${projectId}/settings`,
      },
    });

    await spend(projectId, 30); // 110 %: only 100 is new
    forgetFiredThresholds();
    expect((await evaluateBudgetThresholds(env.deps, projectId)).map((f) => f.percent)).toEqual([100]);
  });

  it("are recorded but not delivered when the plan lacks budget_webhooks", async () => {
    const { org, projectId } = await project({ mode: "hard_deny", limits: { monthly: 100 } });
    const free = await env.db.plan.findUniqueOrThrow({ where: { slug: "free" } });
    await env.db.subscription.update({ where: { organizationId: org.id }, data: { planId: free.id } });
    await spend(projectId, 90);
    const fired = await evaluateBudgetThresholds(env.deps, projectId);
    expect(fired.map((f) => [f.percent, f.deliverable])).toEqual([
      [50, false],
      [80, false],
    ]);
    const events = await env.db.webhookEvent.findMany({ where: { projectId }, include: { outbox: true } });
    expect(events.map((e) => [e.deliverable, e.outbox])).toEqual([
      [false, null],
      [false, null],
    ]);

    // An organization override turns it on for the next crossing.
    await env.db.entitlementOverride.create({
      data: {
        id: `ovr_${projectId.slice(5)}`,
        organizationId: org.id,
        featureKey: "budget_webhooks",
        value: true,
        reason: "test",
      },
    });
    await spend(projectId, 10);
    const more = await evaluateBudgetThresholds(env.deps, projectId);
    expect(more.map((f) => [f.percent, f.deliverable])).toEqual([[100, true]]);
  });

  it("never fire without thresholds, or for a period without a limit", async () => {
    const { projectId } = await project({ mode: "alert_only", limits: { monthly: 10 } });
    await env.db.project.update({ where: { id: projectId }, data: { alertThresholds: [] } });
    await spend(projectId, 9);
    expect(await evaluateBudgetThresholds(env.deps, projectId)).toEqual([]);
    expect(await env.db.budgetThresholdAlert.count({ where: { projectId } })).toBe(0);
  });
});
