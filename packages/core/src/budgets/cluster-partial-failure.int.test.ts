import { keySlot, type RedisClient, whenReady } from "@breakwater/queue";
import { type PrivateCluster, startPrivateCluster } from "@breakwater/queue/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  budgetTestEnv,
  callId,
  clearOfMidnight,
  DOLLAR_MODEL,
  makeProject,
  recentMs,
} from "../testing/budgets";
import type { BudgetDeps } from "./budget-deps";
import { createBudgetRedis } from "./budget-redis";
import { checkBudget } from "./check-budget";
import { budgetPrefix } from "./redis-keys";

const env = budgetTestEnv();
const logLines: string[] = [];

function check(d: BudgetDeps, projectId: string) {
  return checkBudget(d, {
    projectId,
    ...DOLLAR_MODEL,
    estimatedInputTokens: 1,
    fallbackProviders: [],
    fallbackModels: [],
    modality: "text",
    uncountedCalls: 0,
    uncountedTokens: 0,
  });
}

/** $5 of durable spend a minute ago (today, in UTC): what a rebuild must find again. */
async function spentFive(projectId: string, now: number) {
  await env.db.metadataEvent.create({
    data: {
      projectId,
      callId: callId(),
      attemptIndex: 0,
      timestamp: new Date(recentMs(now, 60_000)),
      sdkInstanceId: `sdk-${callId()}`,
      model: DOLLAR_MODEL.model,
      provider: "openai",
      status: "success",
      inputTokens: 1,
      outputTokens: 1,
      latencyMs: 10,
      isModelFallback: false,
      agentRunId: "_auto-sdk-2026-12-04",
      costUsd: "5",
      priced: true,
    },
  });
}

describe("budget checks on a Redis Cluster with one master down", () => {
  let cluster: PrivateCluster;
  let redis: RedisClient;
  let deps: BudgetDeps;

  beforeAll(async () => {
    cluster = await startPrivateCluster({ masters: 3 });
    redis = createBudgetRedis({
      REDIS_URL: env.config.REDIS_URL,
      REDIS_CLUSTER_NODES: cluster.ports.map((port) => ({ host: "127.0.0.1", port })),
    });
    redis.on("error", () => undefined);
    expect(await whenReady(redis, 10_000)).toBe(true);
    deps = {
      ...env.deps,
      redis,
      log: pino({ level: "info" }, { write: (line: string) => void logLines.push(line) }),
    };
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
    await env.close();
  });

  it("keeps serving the other masters' projects, fails the down master's fast, and rebuilds them from Postgres when it returns empty", async () => {
    // The test reads today's window for about 20 s: it must not run into a UTC midnight.
    const now = await clearOfMidnight(45_000);
    // Projects until one lives on a master other than the first one's.
    const owners = new Map<number, string>();
    while (owners.size < 2) {
      const { projectId } = await makeProject(env, { mode: "hard_deny", limits: { daily: 1000 } });
      owners.set(await cluster.ownerOf(budgetPrefix(projectId)), projectId);
    }
    const [[downPort, downProject], [, upProject]] = [...owners.entries()] as [
      [number, string],
      [number, string],
    ];
    expect(keySlot(budgetPrefix(downProject))).not.toBe(keySlot(budgetPrefix(upProject)));
    await spentFive(downProject, now);

    // A check holds $3 (1 input token at $1, the output bound of 1 at $2).
    expect(await check(deps, upProject)).toMatchObject({ allowed: true, currentUsage: 3 });
    expect(await check(deps, downProject)).toMatchObject({ allowed: true, currentUsage: 8 });

    await cluster.kill(downPort);
    // The healthy masters' projects never notice.
    for (let i = 0; i < 5; i++) expect((await check(deps, upProject)).allowed).toBe(true);
    // The down master's projects answer BUDGET_UNAVAILABLE (the wire's 503) within the deadline.
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await expect(check(deps, downProject)).rejects.toMatchObject({ code: "BUDGET_UNAVAILABLE" });
      expect(performance.now() - started).toBeLessThan(800);
    }

    // Back, empty (no persistence): no process restarts, the client finds the node again and the
    // project's counters are rebuilt from Postgres (its `built` marker is gone with the data).
    await cluster.restart(downPort);
    await expect
      .poll(
        async () => {
          try {
            return (await check(deps, downProject)).allowed;
          } catch {
            return false;
          }
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
    // The $5 durable spend is back; the hold made before the outage went with the node; the
    // polling check above and this one hold $3 each.
    const after = await check(deps, downProject);
    expect(after).toMatchObject({ allowed: true, currentUsage: 11 });
    expect(logLines.some((l) => l.includes("budget counters rebuilt") && l.includes(downProject))).toBe(true);
    expect((await check(deps, upProject)).allowed).toBe(true);
  }, 90_000);
});
