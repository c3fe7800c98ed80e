import { isCluster, type RedisClient, whenReady } from "@breakwater/queue";
import { type PrivateCluster, startPrivateCluster } from "@breakwater/queue/testing";
import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetTestEnv, DOLLAR_MODEL, makeProject } from "../testing/budgets";
import type { BudgetDeps } from "./budget-deps";
import { createBudgetRedis } from "./budget-redis";
import { checkBudget } from "./check-budget";
import { sweepNode } from "./promoted-masters";
import { budgetPrefix } from "./redis-keys";

const env = budgetTestEnv();
const log = pino({ level: "silent" });

describe("sweeping a promoted master's budget markers", () => {
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
    deps = { ...env.deps, redis };
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
    await env.close();
  });

  const cluster_ = () => {
    if (!isCluster(redis)) throw new Error("a cluster client was expected");
    return redis;
  };
  const check = (projectId: string) =>
    checkBudget(deps, {
      projectId,
      ...DOLLAR_MODEL,
      estimatedInputTokens: 1,
      fallbackProviders: [],
      fallbackModels: [],
      modality: "text",
      uncountedCalls: 0,
      uncountedTokens: 0,
    });

  it("keeps the markers the node built itself and deletes the ones another node built, once across processes", async () => {
    const { projectId } = await makeProject(env, { limits: { daily: 1000 } });
    expect((await check(projectId)).allowed).toBe(true); // the first check builds the counters
    const port = await cluster.ownerOf(budgetPrefix(projectId));
    const node = new Redis({ host: "127.0.0.1", port });
    const built = `${budgetPrefix(projectId)}built`;
    const nodeId = (await node.call("CLUSTER", "MYID")) as string;
    expect(await node.hget(built, "n")).toBe(nodeId);

    // Built here: kept.
    expect(await sweepNode(cluster_(), `127.0.0.1:${port}`, log)).toBe(0);
    expect(await node.hexists(built, "p")).toBe(1);

    // A second sweep of the same node within the lock's lifetime is another process's: skipped.
    await node.hset(built, "n", "another-node");
    expect(await sweepNode(cluster_(), `127.0.0.1:${port}`, log)).toBe(0);
    expect(await node.exists(built)).toBe(1);

    // Built elsewhere (as a replica promoted with its old master's marker): deleted, and the next
    // check rebuilds and marks it as this node's.
    await redis.del(`bw:bud:sweep:127.0.0.1:${port}`);
    expect(await sweepNode(cluster_(), `127.0.0.1:${port}`, log)).toBe(1);
    expect(await node.exists(built)).toBe(0);
    expect((await check(projectId)).allowed).toBe(true);
    expect(await node.hget(built, "n")).toBe(nodeId);
    node.disconnect();
  }, 30_000);
});
