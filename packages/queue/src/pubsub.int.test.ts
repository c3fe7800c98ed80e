import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeRedis,
  createRedisClient,
  isCluster,
  masterNodes,
  type RedisClient,
  type RedisTarget,
} from "./connection";
import { RedisPubSub } from "./pubsub";
import { type PrivateCluster, startPrivateCluster } from "./testing/private-cluster";
import { type PrivateRedis, startPrivateRedis } from "./testing/private-redis";

const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
};

/** CLIENT KILL TYPE pubsub on every node: what a proxy restart or a node's client purge does. */
async function killPubSubClients(admin: RedisClient): Promise<number> {
  let killed = 0;
  for (const node of masterNodes(admin))
    killed += Number(await node.call("CLIENT", "KILL", "TYPE", "pubsub"));
  return killed;
}

describe.each(["standalone", "cluster"] as const)("RedisPubSub on %s Redis", (mode) => {
  let server: PrivateRedis | undefined;
  let cluster: PrivateCluster | undefined;
  let target: RedisTarget;
  let a: RedisClient;
  let b: RedisClient;
  let busA: RedisPubSub;
  let busB: RedisPubSub;

  beforeAll(async () => {
    if (mode === "cluster") {
      cluster = await startPrivateCluster();
      target = {
        REDIS_URL: "redis://127.0.0.1:6379/0",
        REDIS_CLUSTER_NODES: cluster.ports.map((port) => ({ host: "127.0.0.1", port })),
      };
    } else {
      server = await startPrivateRedis();
      target = { REDIS_URL: server.url };
    }
    a = createRedisClient(target, "publisher");
    b = createRedisClient(target, "publisher");
    busA = new RedisPubSub({ target, client: a });
    busB = new RedisPubSub({ target, client: b });
  }, 60_000);

  afterAll(async () => {
    await busA?.close();
    await busB?.close();
    await closeRedis(a);
    await closeRedis(b);
    await server?.stop();
    await cluster?.stop();
  });

  it("delivers what one replica publishes to every subscriber, on sharded channels in a cluster", async () => {
    expect(isCluster(a)).toBe(mode === "cluster");
    const gotA: string[] = [];
    const gotB: string[] = [];
    const offA = await busA.subscribe("bw:test-a", (m) => gotA.push(m));
    const offB = await busB.subscribe("bw:test-a", (m) => gotB.push(m));
    await busA.publish("bw:test-a", "one");
    await busB.publish("bw:test-a", "two");
    expect(await until(() => gotA.length === 2 && gotB.length === 2, 2_000)).toBe(true);
    expect(gotA).toEqual(["one", "two"]);
    expect(gotB).toEqual(["one", "two"]);
    if (mode === "cluster") {
      // Sharded: a classic SUBSCRIBE to the same name hears nothing.
      expect(await (a as import("ioredis").Cluster).publish("{bw:test-a}", "x")).toBe(0);
    }
    await offA();
    await offB();
  });

  it("re-subscribes by itself after CLIENT KILL TYPE pubsub and reports the gap within 1 s", async () => {
    let gaps = 0;
    const got: string[] = [];
    const off = await busB.subscribe(
      "bw:test-gap",
      (m) => got.push(m),
      () => gaps++,
    );
    expect(await killPubSubClients(a)).toBeGreaterThan(0);
    const t0 = Date.now();
    expect(await until(() => gaps === 1, 1_000)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1_000);
    // And the channel works again.
    await busA.publish("bw:test-gap", "after");
    expect(await until(() => got.includes("after"), 2_000)).toBe(true);
    await off();
  });

  it.runIf(mode === "cluster")(
    "follows its channel to the restarted master and reports the gap",
    async () => {
      let gaps = 0;
      const got: string[] = [];
      const off = await busB.subscribe(
        "bw:test-node",
        (m) => got.push(m),
        () => gaps++,
      );
      const owner = await cluster!.ownerOf("{bw:test-node}");
      await cluster!.kill(owner);
      await new Promise((r) => setTimeout(r, 300));
      await cluster!.restart(owner);
      expect(await until(() => gaps >= 1, 5_000)).toBe(true);
      await expect
        .poll(
          async () => {
            await busA.publish("bw:test-node", "back").catch(() => undefined);
            return got.includes("back");
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBe(true);
      await off();
    },
    40_000,
  );
});
