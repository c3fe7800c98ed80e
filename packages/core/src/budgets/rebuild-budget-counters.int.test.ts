import { type PrivateRedis, startPrivateRedis } from "@breakwater/queue/testing";
import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  budgetTestEnv,
  callId,
  clearOfMidnight,
  DOLLAR_MODEL,
  deleteProjectKeys,
  makeProject,
  recentMs,
} from "../testing/budgets";
import type { BudgetDeps } from "./budget-deps";
import { createBudgetRedis } from "./budget-redis";
import { checkBudget } from "./check-budget";
import { recordIngestedSpend } from "./record-ingested-spend";
import { budgetKeys } from "./redis-keys";
import { currentWindows } from "./windows";

const env = budgetTestEnv();
const logLines: string[] = [];
const deps: BudgetDeps = {
  ...env.deps,
  log: pino({ level: "info" }, { write: (line: string) => void logLines.push(line) }),
};
const projects: string[] = [];
afterAll(async () => {
  for (const p of projects) await deleteProjectKeys(env.redis, p);
  await env.close();
});

const rebuilds = (projectId: string) =>
  logLines.filter((l) => l.includes("budget counters rebuilt") && l.includes(projectId)).length;

function check(d: BudgetDeps, projectId: string, tokens: number, extra: Record<string, unknown> = {}) {
  return checkBudget(d, {
    projectId,
    ...DOLLAR_MODEL,
    estimatedInputTokens: tokens,
    fallbackProviders: [],
    fallbackModels: [],
    modality: "text",
    uncountedCalls: 0,
    uncountedTokens: 0,
    ...extra,
  });
}

let seq = 0;
/** Durable metadata events, written the way ingest writes them. */
async function insertEvents(
  projectId: string,
  rows: {
    at: Date;
    costUsd: string | null;
    run?: string;
    tags?: Record<string, string>;
    status?: string;
    call?: string;
  }[],
) {
  await env.db.metadataEvent.createMany({
    data: rows.map((r) => ({
      projectId,
      callId: r.call ?? callId(),
      attemptIndex: 0,
      timestamp: r.at,
      sdkInstanceId: `sdk-${seq++}`,
      model: DOLLAR_MODEL.model,
      provider: "openai",
      status: r.status ?? "success",
      inputTokens: 1,
      outputTokens: 1,
      latencyMs: 10,
      isModelFallback: false,
      agentRunId: r.run ?? "_auto-sdk-2026-11-30",
      tags: r.tags,
      costUsd: r.costUsd,
      priced: r.costUsd !== null,
    })),
  });
}

async function seededProject() {
  const { projectId } = await makeProject(env, {
    mode: "hard_deny",
    limits: { daily: 1000, monthly: 5000 },
    runCapUsd: 104,
    tagRules: [{ selector: { team: "search" }, period: "monthly", limitUsd: 6 }],
  });
  projects.push(projectId);
  const now = await clearOfMidnight();
  const recent = new Date(recentMs(now, 60_000));
  const old = new Date(now - 60 * 86_400_000);
  await insertEvents(projectId, [
    { at: recent, costUsd: "5", run: "r1", tags: { team: "search", env: "prod" } },
    { at: recent, costUsd: "2", status: "budget_denied" },
    { at: recent, costUsd: null },
    { at: old, costUsd: "100", run: "r1" },
    { at: old, costUsd: "50", run: "r-old" },
  ]);
  return projectId;
}

async function expectRebuiltState(d: BudgetDeps, projectId: string) {
  // Daily: $5 settled + this check's $3.
  expect(await check(d, projectId, 1)).toMatchObject({ allowed: true, currentUsage: 8, budgetLimit: 1000 });
  // The run's lifetime spend ($5 today + $100 two months ago) is over its $104 cap.
  expect(await check(d, projectId, 0, { agentRunId: "r1" })).toMatchObject({
    allowed: false,
    deniedByPeriod: "agent_run",
    currentUsage: 105,
  });
  // The tag rule window holds the tagged $5 (+ the $3 held above, which carried no tags).
  expect(await check(d, projectId, 0, { tags: { team: "search" } })).toMatchObject({
    allowed: false,
    deniedByPeriod: "tag",
    currentUsage: 5,
    budgetLimit: 6,
  });
}

describe("rebuilding counters from durable events", () => {
  it("rebuilds window, run and tag-rule counters when the project's keys are gone", async () => {
    const p = await seededProject();
    await expectRebuiltState(deps, p);
    const w = currentWindows(new Date());
    const k = budgetKeys(p);
    expect(await env.redis.get(k.usage(w.daily.key))).toBe("5000000000");
    expect(await env.redis.get(k.run("r1"))).toBe("105000000000");
    expect(await env.redis.exists(k.run("r-old"))).toBe(0); // idle past the run lookback
    expect(await env.redis.exists(k.run("_auto-sdk-2026-11-30"))).toBe(0);

    // Lose everything (as a Redis flush would, for this project only) and ask again.
    expect(await deleteProjectKeys(env.redis, p)).toBeGreaterThan(0);
    await expectRebuiltState(deps, p);
    expect(rebuilds(p)).toBe(2);
  });

  it("rebuilds once for many concurrent checks", async () => {
    const p = await seededProject();
    const results = await Promise.all(Array.from({ length: 25 }, () => check(deps, p, 1)));
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(rebuilds(p)).toBe(1);
    expect(await env.redis.hget(budgetKeys(p).heldSums, "p")).toBe(String(25 * 3e9));
    const max = Math.max(...results.map((r) => r.currentUsage));
    expect(max).toBe(5 + 25 * 3);
  });

  it("does not add an event again when its ingest reaches Redis after the rebuild counted it", async () => {
    const p = await seededProject();
    const late = callId();
    const at = new Date(recentMs(await clearOfMidnight(), 5_000));
    await insertEvents(p, [{ at, costUsd: "1", call: late }]);
    expect((await check(deps, p, 0)).currentUsage).toBe(6 + 2);
    await recordIngestedSpend(deps, p, [
      {
        callId: late,
        attemptIndex: 0,
        timestamp: at,
        costNanos: 1_000_000_000n,
        agentRunId: "_auto-x",
        status: "success",
      },
    ]);
    expect((await check(deps, p, 0)).currentUsage).toBe(6 + 4); // two $2 holds, still $6 settled
  });

  it("answers BUDGET_UNAVAILABLE while another process holds the rebuild lock, then rebuilds", async () => {
    const p = await seededProject();
    const k = budgetKeys(p);
    await env.redis.set(k.lock, "someone-else", "PX", 10_000);
    const started = Date.now();
    await expect(check(deps, p, 1)).rejects.toMatchObject({ code: "BUDGET_UNAVAILABLE" });
    expect(Date.now() - started).toBeLessThan(1_000);
    await env.redis.del(k.lock);
    expect((await check(deps, p, 1)).currentUsage).toBe(8);
  });
});

describe("Redis outages", () => {
  it("fails fast with BUDGET_UNAVAILABLE when Redis is unreachable", async () => {
    const p = await seededProject();
    await check(deps, p, 0); // runtime cached: only Redis is in question below
    const dead = createBudgetRedis("redis://127.0.0.1:3599/1");
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await expect(check({ ...deps, redis: dead }, p, 1)).rejects.toMatchObject({
          code: "BUDGET_UNAVAILABLE",
          message: "Budget backend temporarily unavailable; retry",
        });
        expect(performance.now() - started).toBeLessThan(200);
      }
    } finally {
      dead.disconnect();
    }
  });

  it("bounds a hung Redis by the command timeout, even for a client with an offline queue", async () => {
    const p = await seededProject();
    await check(deps, p, 0);
    // A plain client (offline queue on, no timeout) pointed at a server that never answers.
    const server = await import("node:net").then((net) =>
      net.createServer(() => undefined).listen(3598, "127.0.0.1"),
    );
    const hung = new Redis("redis://127.0.0.1:3598/1", { lazyConnect: false });
    hung.on("error", () => undefined);
    try {
      const started = performance.now();
      await expect(check({ ...deps, redis: hung }, p, 1)).rejects.toMatchObject({
        code: "BUDGET_UNAVAILABLE",
      });
      expect(performance.now() - started).toBeLessThan(800);
    } finally {
      hung.disconnect();
      server.close();
    }
  });

  describe("with a private Redis that restarts empty", () => {
    let server: PrivateRedis;
    let redis: Redis;
    beforeAll(async () => {
      server = await startPrivateRedis();
      redis = createBudgetRedis(server.url) as Redis;
      redis.on("error", () => undefined);
      await new Promise((r) => redis.once("ready", r));
    });
    afterAll(async () => {
      redis.disconnect();
      await server.stop(true);
    });

    it("answers 503-fast while Redis is down and rebuilds from Postgres when it comes back empty", async () => {
      const p = await seededProject();
      const d: BudgetDeps = { ...deps, redis };
      await expectRebuiltState(d, p);

      await server.stop(true);
      const started = performance.now();
      await expect(check(d, p, 1)).rejects.toMatchObject({ code: "BUDGET_UNAVAILABLE" });
      expect(performance.now() - started).toBeLessThan(200);

      await server.restart();
      await new Promise((r) => (redis.status === "ready" ? r(null) : redis.once("ready", r)));
      expect(await redis.dbsize()).toBe(0); // restarted empty: counters, holds and scripts are gone
      await expectRebuiltState(d, p); // NOSCRIPT → EVAL, then rebuilt before answering
      expect(rebuilds(p)).toBe(2);
    });
  });
});
