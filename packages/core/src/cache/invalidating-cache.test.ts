import { describe, expect, it } from "vitest";
import { InvalidatingCache } from "./invalidating-cache";

/** A cache on a hand-driven clock whose loads the test resolves or fails one by one. */
function harness(maxEntries?: number) {
  let now = 0;
  const loads: { key: string; resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const cache = new InvalidatingCache<string>({
    name: "t",
    ttlMs: 1_000,
    maxEntries,
    now: () => now,
    load: (key) => new Promise<string>((resolve, reject) => loads.push({ key, resolve, reject })),
  });
  const tick = () => new Promise((r) => setImmediate(r));
  return {
    cache,
    loads,
    tick,
    at: (t: number) => {
      now = t;
    },
  };
}

describe("InvalidatingCache refresh-ahead", () => {
  it("answers a key in use from memory and reloads it in the background before it expires", async () => {
    const h = harness();
    const first = h.cache.get("k");
    h.loads[0]!.resolve("v1");
    expect(await first).toBe("v1");

    h.at(700);
    expect(await h.cache.get("k")).toBe("v1");
    expect(h.loads).toHaveLength(1);

    h.at(800); // past three quarters of the TTL: still served, one reload starts
    expect(await h.cache.get("k")).toBe("v1");
    expect(await h.cache.get("k")).toBe("v1");
    expect(h.loads).toHaveLength(2);

    h.loads[1]!.resolve("v2");
    await h.tick();
    expect(await h.cache.get("k")).toBe("v2");
    h.at(1_500); // the reload renewed the entry: no wait where the first one would have expired
    expect(h.cache.peek("k")).toBe("v2");
    expect(await h.cache.get("k")).toBe("v2");
    expect(h.loads).toHaveLength(2);
  });

  it("keeps serving the cached value while a background reload fails, never past the TTL", async () => {
    const h = harness();
    const first = h.cache.get("k");
    h.loads[0]!.resolve("v1");
    await first;

    h.at(800);
    expect(await h.cache.get("k")).toBe("v1");
    h.loads[1]!.reject(new Error("database down"));
    await h.tick();
    h.at(900); // the failed reload is retried no sooner than a second later
    expect(await h.cache.get("k")).toBe("v1");
    expect(h.loads).toHaveLength(2);

    h.at(1_000); // expired: the caller waits for a load, the old value is not served
    const late = h.cache.get("k");
    expect(h.loads).toHaveLength(3);
    h.loads[2]!.resolve("v3");
    expect(await late).toBe("v3");
  });

  it("makes the caller wait for a key left unused past its TTL", async () => {
    const h = harness();
    const first = h.cache.get("k");
    h.loads[0]!.resolve("v1");
    await first;
    h.at(5_000);
    expect(h.cache.peek("k")).toBeUndefined();
    const again = h.cache.get("k");
    h.loads[1]!.resolve("v2");
    expect(await again).toBe("v2");
  });

  it("drops a background reload that an invalidation overtook", async () => {
    const h = harness();
    const first = h.cache.get("k");
    h.loads[0]!.resolve("v1");
    await first;
    h.at(800);
    await h.cache.get("k"); // starts the reload
    h.cache.invalidateLocal("k");
    const fresh = h.cache.get("k"); // a miss: waits for its own load
    h.loads[1]!.resolve("stale");
    h.loads[2]!.resolve("fresh");
    expect(await fresh).toBe("fresh");
    await h.tick();
    expect(h.cache.peek("k")).toBe("fresh");
  });

  it("keeps a background reload that an invalidation of another key did not touch", async () => {
    const h = harness();
    const a = h.cache.get("a");
    h.loads[0]!.resolve("a1");
    await a;
    h.at(800);
    await h.cache.get("a"); // starts the reload of "a"
    h.cache.invalidateLocal("b");
    h.loads[1]!.resolve("a2");
    await h.tick();
    expect(h.cache.peek("a")).toBe("a2");
  });

  it("never evicts another key when a cached key is reloaded at capacity", async () => {
    const h = harness(2);
    for (const [i, key] of ["a", "b"].entries()) {
      const got = h.cache.get(key);
      h.loads[i]!.resolve(`${key}1`);
      await got;
    }
    h.at(800);
    await h.cache.get("b"); // reload of the newer key while the cache is full
    h.loads[2]!.resolve("b2");
    await h.tick();
    expect(h.cache.peek("b")).toBe("b2");
    expect(h.cache.peek("a")).toBe("a1");
  });
});
