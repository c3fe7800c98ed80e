import { parseConfig } from "@breakwater/config";
import { Queue, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuePrefix } from "./catalogue";
import { closeRedis, createRedis, scanKeys } from "./connection";
import { createJobsClient, type JobsClient } from "./jobs-client";
import { keySlot } from "./pubsub";
import { freePort } from "./testing/ports";
import { type PrivateCluster, startPrivateCluster } from "./testing/private-cluster";
import { type PrivateRedis, startPrivateRedis } from "./testing/private-redis";

const evt = () =>
  `evt_${Date.now().toString(16).padStart(12, "0")}${Math.random().toString(16).slice(2, 14).padEnd(12, "0")}`;

describe("jobs client", () => {
  let redis: PrivateRedis;
  let jobs: JobsClient;
  const config = () => parseConfig({ ...process.env, REDIS_URL: redis.url, QUEUE_PREFIX: `t${Date.now()}` });
  let cfg: ReturnType<typeof config>;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    cfg = config();
    jobs = createJobsClient(cfg);
  });
  afterAll(async () => {
    await jobs.close();
    await redis.stop();
  });

  it("puts every key of a queue behind its {hash tag}", async () => {
    const id = evt();
    await jobs.enqueue("webhook-deliver", { eventId: id }, { jobId: id });
    const conn = createRedis({ REDIS_URL: redis.url }, "worker");
    const keys = await conn.keys(`${cfg.QUEUE_PREFIX}:*`);
    await closeRedis(conn);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k.startsWith(`${cfg.QUEUE_PREFIX}:{webhook-deliver}:`)).toBe(true);
  });

  it("rejects a payload that does not match the catalogue", async () => {
    await expect(jobs.enqueue("webhook-deliver", { eventId: "nope" })).rejects.toThrow();
  });

  it("enqueue with the same jobId is a no-op; ensure re-adds lost and finished jobs only", async () => {
    const id = evt();
    await jobs.enqueue("webhook-deliver", { eventId: id }, { jobId: id, delayMs: 60_000 });
    await jobs.enqueue("webhook-deliver", { eventId: id }, { jobId: id, delayMs: 60_000 });
    expect((await jobs.counts("webhook-deliver")).delayed).toBeGreaterThanOrEqual(1);
    expect(await jobs.ensure("webhook-deliver", { eventId: id }, { jobId: id })).toBe("present");

    const conn = createRedis({ REDIS_URL: redis.url }, "worker");
    const prefix = queuePrefix(cfg, "webhook-deliver");
    const q = new Queue("webhook-deliver", { connection: conn, prefix });
    await q.remove(id); // what a Redis restart without persistence does to the job
    expect(await jobs.ensure("webhook-deliver", { eventId: id }, { jobId: id })).toBe("added");
    expect(await q.getJobState(id)).toBe("waiting");

    // Let a worker fail it for good: a finished job with an incomplete outbox row gets replaced.
    await q.remove(id);
    await q.add("webhook-deliver", { eventId: id }, { jobId: id, attempts: 1 });
    const worker = new Worker(
      "webhook-deliver",
      async () => {
        throw new Error("boom");
      },
      { connection: conn, prefix },
    );
    await new Promise<void>((resolve) => worker.on("failed", () => resolve()));
    await worker.close();
    expect(await q.getJobState(id)).toBe("failed");
    expect(await jobs.ensure("webhook-deliver", { eventId: id }, { jobId: id, delayMs: 60_000 })).toBe(
      "replaced",
    );
    expect(await q.getJobState(id)).toBe("delayed");
    await q.close();
    await closeRedis(conn);
  });

  it("enqueueMany adds a batch in one call with each job's id and priority; ids already there are no-ops; a bad payload refuses the batch", async () => {
    const ids = [evt(), evt(), evt()];
    await jobs.enqueueMany("webhook-deliver", [
      { payload: { eventId: ids[0]! }, opts: { jobId: ids[0]!, delayMs: 60_000 } },
      { payload: { eventId: ids[1]! }, opts: { jobId: ids[1]!, priority: 5 } },
      { payload: { eventId: ids[2]! }, opts: { jobId: ids[2]! } },
    ]);
    const conn = createRedis({ REDIS_URL: redis.url }, "worker");
    const q = new Queue("webhook-deliver", { connection: conn, prefix: queuePrefix(cfg, "webhook-deliver") });
    expect(await q.getJobState(ids[0]!)).toBe("delayed");
    expect(await q.getJobState(ids[1]!)).toBe("prioritized");
    expect((await q.getJob(ids[1]!))?.priority).toBe(5);
    expect(await q.getJobState(ids[2]!)).toBe("waiting");
    expect((await q.getJob(ids[2]!))?.data).toEqual({ eventId: ids[2] });
    // Again, with one new job: the existing ones stay as they are, the new one is added.
    const fresh = evt();
    await jobs.enqueueMany("webhook-deliver", [
      { payload: { eventId: ids[0]! }, opts: { jobId: ids[0]! } },
      { payload: { eventId: fresh }, opts: { jobId: fresh } },
    ]);
    expect(await q.getJobState(ids[0]!)).toBe("delayed");
    expect(await q.getJobState(fresh)).toBe("waiting");
    const refused = evt();
    await expect(
      jobs.enqueueMany("webhook-deliver", [
        { payload: { eventId: refused }, opts: { jobId: refused } },
        { payload: { eventId: "nope" } },
      ]),
    ).rejects.toThrow();
    expect(await q.getJobState(refused)).toBe("unknown");
    await jobs.enqueueMany("webhook-deliver", []);
    await q.close();
    await closeRedis(conn);
  });

  it("a producer fails fast while Redis is down instead of hanging", async () => {
    const down = createJobsClient({ ...cfg, REDIS_URL: `redis://127.0.0.1:${await freePort()}/0` });
    const t0 = Date.now();
    await expect(
      Promise.race([
        down.enqueue("webhook-deliver", { eventId: evt() }),
        new Promise((_, rej) => setTimeout(() => rej(new Error("hung")), 4_000)),
      ]),
    ).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(4_000);
    await down.close();
  });
});

describe("jobs client on a Redis Cluster", () => {
  let cluster: PrivateCluster;
  let cfg: ReturnType<typeof parseConfig>;
  beforeAll(async () => {
    cluster = await startPrivateCluster();
    cfg = parseConfig({ ...process.env, REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: `t${Date.now()}` });
  }, 60_000);
  afterAll(async () => {
    await cluster.stop();
  });

  it("enqueues and works jobs, each queue's keys in one slot on one master", async () => {
    const jobs = createJobsClient(cfg);
    const conn = createRedis(cfg, "worker");
    const prefix = queuePrefix(cfg, "webhook-deliver");
    const done: string[] = [];
    const worker = new Worker(
      "webhook-deliver",
      async (job) => {
        done.push((job.data as { eventId: string }).eventId);
      },
      { connection: conn, prefix },
    );
    const ids = [evt(), evt(), evt()];
    for (const id of ids) await jobs.enqueue("webhook-deliver", { eventId: id }, { jobId: id });
    // A bulk add is one MULTI of the queue's scripts: it works because the queue is in one slot.
    const bulk = [evt(), evt()];
    await jobs.enqueueMany(
      "webhook-deliver",
      bulk.map((id) => ({ payload: { eventId: id }, opts: { jobId: id, priority: 3 } })),
    );
    ids.push(...bulk);
    await expect.poll(() => done.length, { timeout: 10_000 }).toBe(5);
    expect(done.sort()).toEqual([...ids].sort());
    const keys = await scanKeys(conn, `${cfg.QUEUE_PREFIX}:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys.map((k) => keySlot(k))).size).toBe(1);
    await worker.close();
    await jobs.close();
    await closeRedis(conn);
  }, 30_000);
});

describe("jobs on a Redis Cluster whose master is replaced by its replica", () => {
  let cluster: PrivateCluster;
  let cfg: ReturnType<typeof parseConfig>;
  beforeAll(async () => {
    cluster = await startPrivateCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 1_000 });
    cfg = parseConfig({ ...process.env, REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: `t${Date.now()}` });
  }, 60_000);
  afterAll(async () => {
    await cluster.stop();
  });

  it("a killed master's queue takes jobs again once its replica is promoted: the producer and the worker that were running carry on", async () => {
    const jobs = createJobsClient(cfg);
    const conn = createRedis(cfg, "worker");
    conn.on("error", () => {});
    const prefix = queuePrefix(cfg, "webhook-deliver");
    const done = new Map<string, number>();
    // As apps/worker builds its workers: the shared worker connection, BullMQ's blocking duplicate.
    const worker = new Worker(
      "webhook-deliver",
      async (job) => {
        done.set((job.data as { eventId: string }).eventId, performance.now());
      },
      { connection: conn, prefix, drainDelay: 5, lockDuration: 30_000, stalledInterval: 15_000 },
    );
    worker.on("error", () => {});
    const first = evt();
    await jobs.enqueue("webhook-deliver", { eventId: first }, { jobId: first });
    await expect.poll(() => done.has(first), { timeout: 10_000 }).toBe(true);

    const master = await cluster.ownerOf(`${prefix}:wait`);
    const [replica] = await cluster.replicasOf(master);
    expect(replica).toBeDefined();
    const killedAt = performance.now();
    await cluster.kill(master);
    const promotion = (async () => {
      while ((await cluster.roleOf(replica!)) !== "master") await new Promise((r) => setTimeout(r, 20));
      return performance.now();
    })();
    // Enqueues fail fast while the slot has no master (the Postgres outbox re-drives them), then land.
    let accepted: string | undefined;
    let refused = 0;
    while (!accepted) {
      const id = evt();
      const sent = performance.now();
      try {
        await jobs.enqueue("webhook-deliver", { eventId: id }, { jobId: id });
        accepted = id;
      } catch {
        refused++;
        expect(performance.now() - sent).toBeLessThan(1_500);
        expect(performance.now() - killedAt).toBeLessThan(15_000);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    expect(refused).toBeGreaterThan(0);
    await expect.poll(() => done.has(accepted), { timeout: 10_000 }).toBe(true);
    // Enqueued and worked within a second of the replica's promotion.
    expect(done.get(accepted)! - (await promotion)).toBeLessThan(1_000);
    expect(await cluster.ownerOf(`${prefix}:wait`)).toBe(replica);
    await worker.close(true);
    await jobs.close();
    await closeRedis(conn);
  }, 60_000);
});
