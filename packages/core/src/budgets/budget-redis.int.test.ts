import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type PrivateRedis, startPrivateRedis } from "@breakwater/queue/testing";
import { Command, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUDGET_REDIS_COMMAND_TIMEOUT_MS,
  createBudgetRedis,
  withRedis,
  writeCorkedNow,
} from "./budget-redis";

// A private redis-server, so pausing it (CLIENT PAUSE: a server that accepts commands and never
// answers them) cannot disturb anything else.
let server: PrivateRedis;
let port: number;
let admin: Redis;

beforeAll(async () => {
  server = await startPrivateRedis();
  port = server.port;
  admin = new Redis(port, "127.0.0.1");
});

afterAll(async () => {
  admin?.disconnect();
  await server?.stop(true);
});

const ready = (r: Redis) => new Promise((res) => (r.status === "ready" ? res(null) : r.once("ready", res)));

describe("the budget Redis client's command deadline", () => {
  it("rejects every command a hung server leaves unanswered after the deadline, then works again", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    redis.on("error", () => undefined);
    try {
      await ready(redis);
      expect(await redis.set("k", "1")).toBe("OK");
      await admin.client("PAUSE", 1500, "ALL");
      const started = performance.now();
      const outcomes = await Promise.all([
        redis.get("k").then(
          () => "answered",
          (e: Error) => e.message,
        ),
        redis
          .pipeline()
          .get("k")
          .exec()
          .then(
            (results) => (results?.[0]?.[0] as Error | null)?.message ?? "answered",
            (e: Error) => e.message,
          ),
        withRedis(redis, () => redis.evalsha("0".repeat(40), 0)).then(
          () => "answered",
          (e: { code?: string }) => e.code,
        ),
      ]);
      const elapsed = performance.now() - started;
      expect(outcomes).toEqual(["Command timed out", "Command timed out", "BUDGET_UNAVAILABLE"]);
      expect(elapsed).toBeGreaterThanOrEqual(BUDGET_REDIS_COMMAND_TIMEOUT_MS - 5);
      expect(elapsed).toBeLessThan(800);
      await new Promise((r) => setTimeout(r, 1200)); // the pause ends; the client carries on
      expect(await redis.get("k")).toBe("1");
    } finally {
      redis.disconnect();
    }
  });

  it("leaves answered commands alone, however many are in flight", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    try {
      await ready(redis);
      const replies = await Promise.all(Array.from({ length: 20_000 }, (_, i) => redis.echo(String(i))));
      expect(replies.every((r, i) => r === String(i))).toBe(true);
      // Longer than the deadline: nothing answered may be rejected late.
      await new Promise((r) => setTimeout(r, BUDGET_REDIS_COMMAND_TIMEOUT_MS + 100));
      expect(await redis.echo("still")).toBe("still");
    } finally {
      redis.disconnect();
    }
  });

  it("rejects each command of a steady stream to a hung server at its own deadline", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    redis.on("error", () => undefined);
    try {
      await ready(redis);
      await admin.client("PAUSE", 2000, "ALL");
      const waits: Promise<[string, number]>[] = [];
      for (let i = 0; i < 150; i++) {
        const sent = performance.now();
        waits.push(
          redis.get("k").then(
            () => ["answered", performance.now() - sent],
            (e: Error) => [e.message, performance.now() - sent],
          ),
        );
        await new Promise((r) => setTimeout(r, 5));
      }
      const outcomes = await Promise.all(waits);
      expect(new Set(outcomes.map(([m]) => m))).toEqual(new Set(["Command timed out"]));
      for (const [, waited] of outcomes) {
        expect(waited).toBeGreaterThanOrEqual(BUDGET_REDIS_COMMAND_TIMEOUT_MS - 5);
        expect(waited).toBeLessThan(BUDGET_REDIS_COMMAND_TIMEOUT_MS + 150);
      }
      await new Promise((r) => setTimeout(r, 1300)); // the pause ends; late replies are discarded
      expect(await redis.set("k", "2")).toBe("OK");
      expect(await redis.get("k")).toBe("2");
    } finally {
      redis.disconnect();
    }
  });

  it("keeps no answered command alive until its deadline", async () => {
    // An answered command must be garbage at once: holding every command of the last deadline
    // window made each young-generation GC copy thousands of them under load.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    try {
      await ready(redis);
      const refs: WeakRef<Command>[] = [];
      await Promise.all(
        Array.from({ length: 200 }, (_, i) => {
          const command = new Command("echo", [String(i)]);
          refs.push(new WeakRef(command));
          return redis.sendCommand(command);
        }),
      );
      await new Promise((r) => setImmediate(r));
      gc();
      const alive = refs.filter((r) => r.deref() !== undefined).length;
      expect(alive).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it("honours a deadline given as commandTimeout", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { commandTimeout: 150 }) as Redis;
    redis.on("error", () => undefined);
    try {
      await ready(redis);
      await admin.client("PAUSE", 800, "ALL");
      const started = performance.now();
      await expect(redis.get("k")).rejects.toThrow("Command timed out");
      expect(performance.now() - started).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 800));
    } finally {
      redis.disconnect();
    }
  });

  it("still bounds commands whose batched write went out corked", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    redis.on("error", () => undefined);
    try {
      await ready(redis);
      await admin.client("PAUSE", 1200, "ALL");
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () =>
          redis.get("k").then(
            () => "answered",
            (e: Error) => e.message,
          ),
        ),
      );
      expect(outcomes).toEqual(Array(5).fill("Command timed out"));
      expect(performance.now() - started).toBeLessThan(800);
      await new Promise((r) => setTimeout(r, 900));
    } finally {
      redis.disconnect();
    }
  });
});

describe("auto-pipelining of the budget Redis client", () => {
  // Socket writes as Node performs them: one _writev per flushed batch, _write for a lone chunk.
  const spyWrites = (redis: Redis) => {
    const socket = redis.stream as unknown as {
      _write: (...a: unknown[]) => unknown;
      _writev: (...a: unknown[]) => unknown;
    };
    const counts = { write: 0, writev: 0, chunks: 0 };
    const write = socket._write.bind(socket);
    const writev = socket._writev.bind(socket);
    socket._write = (...a: unknown[]) => {
      counts.write++;
      counts.chunks++;
      return write(...a);
    };
    socket._writev = (chunks: unknown, ...a: unknown[]) => {
      counts.writev++;
      counts.chunks += (chunks as unknown[]).length;
      return writev(chunks, ...a);
    };
    return counts;
  };

  it("sends the commands of one event-loop turn in one write, and answers each in order", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    try {
      await ready(redis);
      const counts = spyWrites(redis);
      const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => redis.echo(`m${i}`)));
      expect(replies).toEqual(Array.from({ length: 100 }, (_, i) => `m${i}`));
      expect(counts).toEqual({ write: 0, writev: 1, chunks: 100 });
      // The next turn is a batch of its own; a lone command is a plain write.
      expect(await redis.echo("alone")).toBe("alone");
      expect(counts).toEqual({ write: 1, writev: 1, chunks: 101 });
      // An explicit pipeline still travels as one write, and a failing command fails alone.
      const results = await redis.pipeline().set("p", "1").hget("p", "x").get("p").exec();
      expect(results?.map(([err, v]) => (err ? "error" : v))).toEqual(["OK", "error", "1"]);
    } finally {
      redis.disconnect();
    }
  });

  it("writes a batch issued from a setImmediate in that turn when told to, not a turn later", async () => {
    const redis = createBudgetRedis(`redis://127.0.0.1:${port}/0`, { enableAutoPipelining: true }) as Redis;
    try {
      await ready(redis);
      const counts = spyWrites(redis);
      // As the check's CHECK_MANY flush runs: commands issued from the check phase, then written.
      const seen = await new Promise<{ before: number; after: number; nextTurn: number }>((resolve) => {
        setImmediate(() => {
          void redis.echo("a");
          void redis.echo("b");
          const before = counts.chunks;
          writeCorkedNow(redis);
          const after = counts.chunks;
          setImmediate(() => resolve({ before, after, nextTurn: counts.chunks }));
        });
      });
      expect(seen).toEqual({ before: 0, after: 2, nextTurn: 2 });
      expect(counts.writev).toBe(1); // still one write for the batch
      // Without the call the batch leaves at the uncork queued from the check phase: a turn later.
      const late = await new Promise<{ sameTurn: number; nextTurn: number }>((resolve) => {
        setImmediate(() => {
          void redis.echo("c");
          const sameTurn = counts.chunks;
          setImmediate(() => resolve({ sameTurn, nextTurn: counts.chunks }));
        });
      });
      expect(late).toEqual({ sameTurn: 2, nextTurn: 3 });
      // Nothing corked: a no-op.
      writeCorkedNow(redis);
      expect(await redis.echo("d")).toBe("d");
    } finally {
      redis.disconnect();
    }
  });
});

describe("the auto-pipelined budget client across a Redis outage", () => {
  let outage: PrivateRedis | undefined;
  afterAll(() => outage?.stop(true));

  it("fails fast while Redis is down and answers again once it is back", async () => {
    outage = await startPrivateRedis();
    const redis = createBudgetRedis(outage.url, { enableAutoPipelining: true }) as Redis;
    redis.on("error", () => undefined);
    try {
      await ready(redis);
      expect(await Promise.all([redis.set("a", "1"), redis.get("a")])).toEqual(["OK", "1"]);
      await outage.stop(true);
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: 3 }, () =>
          withRedis(redis, () => redis.get("a")).then(
            () => "answered",
            (e: { code?: string }) => e.code,
          ),
        ),
      );
      expect(outcomes).toEqual(Array(3).fill("BUDGET_UNAVAILABLE"));
      expect(performance.now() - started).toBeLessThan(600);
      await outage.restart(); // back, and empty
      await ready(redis);
      expect(await Promise.all([redis.set("b", "2"), redis.get("b"), redis.get("a")])).toEqual([
        "OK",
        "2",
        null,
      ]);
    } finally {
      redis.disconnect();
    }
  });
});
