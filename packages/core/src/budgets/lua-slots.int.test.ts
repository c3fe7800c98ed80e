import { parseConfig } from "@breakwater/config";
import { createRedisClient, isCluster, keySlot } from "@breakwater/queue";
import type { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { luaScript, runScript } from "./lua";

const config = parseConfig(process.env);
const redis = createRedisClient(config, "publisher");
afterAll(() => redis.quit());

const STRAY_BODY = "redis.call('SET', KEYS[1], '1')\nreturn redis.call('SET', ARGV[1], '1')";

/** Two keys in different slots served by the same master (so only the slot rule can refuse). */
async function keysOnOneNode(cluster: Cluster): Promise<[string, string]> {
  if (cluster.status !== "ready") await new Promise((r) => cluster.once("ready", r));
  const tag = Math.random().toString(36).slice(2);
  const first = `{bw:test:${tag}}:a`;
  const owner = cluster.slots[keySlot(first)]?.[0];
  for (let i = 0; i < 10_000; i++) {
    const other = `{bw:test:${tag}:${i}}:b`;
    if (keySlot(other) !== keySlot(first) && cluster.slots[keySlot(other)]?.[0] === owner)
      return [first, other];
  }
  throw new Error("no second key on the same node");
}

describe("Lua scripts on a Redis Cluster", () => {
  it.runIf(isCluster(redis))(
    "refuse a key outside the declared slot (the #!lua shebang), even on the same node",
    async () => {
      const [declared, stray] = await keysOnOneNode(redis as Cluster);
      await expect(runScript(redis, luaScript("stray", STRAY_BODY), [declared], [stray])).rejects.toThrow(
        /do not hash to the same slot/,
      );
      // The same body without the shebang is let through on this node: the shebang is what catches it.
      expect(await redis.eval(STRAY_BODY, 1, declared, stray)).toBe("OK");
      await redis.del(declared);
      await redis.del(stray);
    },
  );

  it("a script that keeps to its declared slot runs (standalone and cluster alike)", async () => {
    const key = `{bw:test:${Math.random().toString(36).slice(2)}}:a`;
    const sibling = `${key.slice(0, key.indexOf("}") + 1)}:b`;
    expect(await runScript(redis, luaScript("kept", STRAY_BODY), [key], [sibling])).toBe("OK");
    await redis.del(key, sibling);
  });
});
