import { parseConfig } from "@breakwater/config";
import { createRedisClient, masterNodes, type RedisClient, whenReady } from "@breakwater/queue";
import { afterAll, describe, expect, it, vi } from "vitest";
import { InvalidatingCache, InvalidationBus } from "./invalidating-cache";

const config = parseConfig(process.env);
const clients: RedisClient[] = [];
const redis = () => {
  const r = createRedisClient(config, "publisher");
  clients.push(r);
  return r;
};
afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
});

async function replica(name: string, source: Map<string, string>) {
  const bus = InvalidationBus.fromTarget(config);
  await bus.start();
  let loads = 0;
  const cache = new InvalidatingCache<string | undefined>({
    name,
    ttlMs: 60_000,
    bus,
    load: async (key) => {
      loads++;
      return source.get(key);
    },
  });
  return { bus, cache, loads: () => loads };
}

describe("InvalidatingCache across replicas", () => {
  it("clears every cache within 1 s when the pub/sub connection is killed (messages in the gap are lost)", async () => {
    const name = `test-${Math.random().toString(36).slice(2)}`;
    const source = new Map([["k", "v1"]]);
    const b = await replica(name, source);
    expect(await b.cache.get("k")).toBe("v1");
    // What a proxy restart, a failover or `CLIENT KILL TYPE pubsub` does, on every master.
    const admin = redis();
    expect(await whenReady(admin, 5_000)).toBe(true);
    let killed = 0;
    for (const node of masterNodes(admin))
      killed += Number(await node.call("CLIENT", "KILL", "TYPE", "pubsub"));
    expect(killed).toBeGreaterThan(0);
    const started = Date.now();
    await vi.waitFor(() => expect(b.cache.peek("k")).toBeUndefined(), { timeout: 1000, interval: 5 });
    expect(Date.now() - started).toBeLessThan(1000);
    // Subscribed again: an invalidation from another replica still arrives.
    const a = await replica(name, source);
    expect(await b.cache.get("k")).toBe("v1");
    source.set("k", "v2");
    await a.cache.invalidate("k");
    await vi.waitFor(() => expect(b.cache.peek("k")).toBeUndefined(), { timeout: 1000, interval: 5 });
    await a.bus.stop();
    await b.bus.stop();
  });

  it("serves hits from memory and drops a key on every replica within a second", async () => {
    const name = `test-${Math.random().toString(36).slice(2)}`;
    const source = new Map([["k", "v1"]]);
    const a = await replica(name, source);
    const b = await replica(name, source);
    expect(await a.cache.get("k")).toBe("v1");
    expect(await b.cache.get("k")).toBe("v1");
    expect(await b.cache.get("k")).toBe("v1");
    expect(b.loads()).toBe(1);

    source.set("k", "v2");
    const started = Date.now();
    await a.cache.invalidate("k");
    expect(await a.cache.get("k")).toBe("v2");
    await vi.waitFor(() => expect(b.cache.peek("k")).toBeUndefined(), { timeout: 1000, interval: 5 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await b.cache.get("k")).toBe("v2");
    await a.bus.stop();
    await b.bus.stop();
  });

  it("loads once for concurrent misses and never stores a value loaded before an invalidation", async () => {
    let release: (v: string) => void = () => {};
    let calls = 0;
    const cache = new InvalidatingCache<string>({
      name: "local",
      ttlMs: 60_000,
      load: () => {
        calls++;
        return new Promise<string>((r) => {
          release = r;
        });
      },
    });
    const p1 = cache.get("x");
    const p2 = cache.get("x");
    cache.invalidateLocal("x");
    release("stale");
    expect(await p1).toBe("stale");
    expect(await p2).toBe("stale");
    expect(calls).toBe(1);
    expect(cache.peek("x")).toBeUndefined();
  });
});
