import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "@breakwater/config";
import {
  assertSecretsKey,
  createDeps,
  type Deps,
  getUsageRollupLagSeconds,
  registerSvixEventTypes,
  usesSvix,
} from "@breakwater/core";
import {
  closeRedis,
  createJobsClient,
  createRedis,
  JOB_NAMES,
  JOBS,
  type JobName,
  QueueSet,
  queuePrefix,
} from "@breakwater/queue";
import { type Job, Worker } from "bullmq";
import { auditRetention } from "./jobs/audit-retention";
import { breakerPrune } from "./jobs/breaker-prune";
import { breakerStaleSweep } from "./jobs/breaker-stale-sweep";
import { eventPartitions } from "./jobs/event-partitions";
import { incidentEvaluate, incidentSweep } from "./jobs/incident-jobs";
import { priceReprice } from "./jobs/price-reprice";
import { usageRetention } from "./jobs/usage-retention";
import { usageRollup } from "./jobs/usage-rollup";
import { webhookDeliver } from "./jobs/webhook-deliver";
import { webhookOutboxSweep } from "./jobs/webhook-outbox-sweep";
import { createWorkerMetrics, type WorkerMetrics } from "./metrics";

type Processor = (job: Job, token?: string) => Promise<unknown>;

/**
 * `stopping` is aborted when the worker starts to shut down: the long sweeps (rollup catch-up,
 * retention) stop between their bounded steps, so a SIGTERM is not held by a job that the next
 * scheduled run would continue anyway.
 */
const processors: Record<JobName, (deps: Deps, metrics: WorkerMetrics, stopping: AbortSignal) => Processor> =
  {
    "webhook-deliver": webhookDeliver,
    "webhook-outbox-sweep": (deps) => webhookOutboxSweep(deps),
    "breaker-stale-sweep": breakerStaleSweep,
    "breaker-prune": breakerPrune,
    "incident-evaluate": (deps) => incidentEvaluate(deps),
    "incident-sweep": (deps) => incidentSweep(deps),
    "price-reprice": (deps) => priceReprice(deps),
    "usage-rollup": (deps, _m, stopping) => usageRollup(deps, stopping),
    "usage-retention": (deps, _m, stopping) => usageRetention(deps, stopping),
    "event-partitions": (deps, _m, stopping) => eventPartitions(deps, stopping),
    "audit-retention": (deps, _m, stopping) => auditRetention(deps, stopping),
  };

export interface WorkerOptions {
  /** Seconds an idle worker blocks waiting for a job (BullMQ drainDelay). */
  drainDelaySeconds?: number;
  /** How long shutdown waits for active jobs before abandoning them to the stall check. */
  shutdownGraceMs?: number;
}

export interface RunningWorker {
  port: number;
  deps: Deps;
  metrics: WorkerMetrics;
  /** Stops taking jobs, waits (bounded) for active ones, closes everything. */
  close(): Promise<{ clean: boolean }>;
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Boots the worker: one BullMQ Worker per catalogue entry, the job schedulers (re-registered after
 * every Redis reconnect, since a Redis that lost its data lost them too), Svix event types, and
 * the /healthz + /metrics server on WORKER_HEALTH_PORT.
 */
export async function startWorker(config: Config, opts: WorkerOptions = {}): Promise<RunningWorker> {
  // The built-in sender opens sealed endpoint secrets: without the key, stop now with one line.
  if (!usesSvix(config)) assertSecretsKey(config);
  const base = createDeps(config, "worker");
  const log = base.log;
  // During a Redis outage every connection reports each reconnect attempt; one line per source
  // every 10 s says the same without drowning the logs.
  const lastLogged = new Map<string, number>();
  const throttled = (source: string, fn: () => void) => {
    const now = Date.now();
    if ((lastLogged.get(source) ?? 0) + 10_000 > now) return;
    lastLogged.set(source, now);
    fn();
  };
  // One connection for queues and commands; BullMQ opens its own blocking connection per Worker.
  const connection = createRedis(config, "worker", "breakwater-worker");
  const jobs = createJobsClient(config, { role: "worker", connection });
  const deps: Deps = { ...base, redis: connection, jobs };
  const metrics = createWorkerMetrics({
    queueDepths: () =>
      Promise.all(
        JOB_NAMES.map(async (queue) => ({ queue, counts: await jobs.counts(queue).catch(() => null) })),
      ),
    rollupLag: () => getUsageRollupLagSeconds(deps.db),
  });
  connection.on("error", (err) => {
    metrics.backendErrors.inc({ backend: "redis" });
    throttled("redis", () => log.warn({ err: err.message }, "redis connection error"));
  });
  const queues = new QueueSet(config, connection);

  const registerSchedulers = async () => {
    for (const name of JOB_NAMES) {
      const def = JOBS[name];
      if (!("schedule" in def) || !def.schedule) continue;
      await queues.get(name).upsertJobScheduler(name, def.schedule(config), {
        name,
        data: {},
        opts: {
          attempts: def.options.attempts,
          removeOnComplete: def.options.removeOnComplete,
          removeOnFail: def.options.removeOnFail,
        },
      });
    }
  };
  connection.on("ready", () => {
    registerSchedulers().catch((err: Error) =>
      log.error({ err: err.message }, "registering job schedulers failed"),
    );
  });
  if (connection.status === "ready") await registerSchedulers();

  const stopping = new AbortController();
  // The jobs this process holds right now, with their lock tokens: what a shutdown that runs out of
  // time hands back to the queue.
  const active = new Map<string, { job: Job; token?: string }>();
  const tracked =
    (processor: Processor): Processor =>
    async (job, token) => {
      const key = `${job.queueName}:${job.id}`;
      active.set(key, { job, token });
      try {
        return await processor(job, token);
      } finally {
        active.delete(key);
      }
    };
  const workers = JOB_NAMES.map((name) => {
    const w = new Worker(name, tracked(processors[name](deps, metrics, stopping.signal)), {
      connection,
      prefix: queuePrefix(config, name),
      concurrency: JOBS[name].concurrency(config),
      // Measured: an idle worker picks a new job up in 1–6 ms with drainDelay 5 s or 1 s alike
      // (BullMQ wakes the blocked worker through a marker key), and delayed jobs start ≤ ~100 ms
      // late either way; so BullMQ's 5 s default stays — fewer idle round trips to Redis.
      drainDelay: opts.drainDelaySeconds ?? 5,
      // A killed worker's jobs return to the queue after at most lockDuration + stalledInterval.
      lockDuration: 30_000,
      stalledInterval: 15_000,
      maxStalledCount: 3,
    });
    w.on("completed", () => metrics.jobs.inc({ queue: name, result: "completed" }));
    w.on("failed", (job, err) => {
      metrics.jobs.inc({ queue: name, result: "failed" });
      log.warn(
        { queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade, err: err.message },
        "job failed",
      );
    });
    w.on("error", (err) =>
      throttled(`worker:${name}:${err.message.slice(0, 40)}`, () =>
        log.error({ queue: name, err: err.message }, "worker error"),
      ),
    );
    return w;
  });

  if (usesSvix(config)) {
    registerSvixEventTypes(deps)
      .then(() => log.info("Svix event types registered"))
      .catch((err: Error) =>
        log.error({ err: err.message }, "registering Svix event types failed; will retry at next start"),
      );
  }

  const ping = async () => {
    const [redis, postgres] = await Promise.allSettled([
      withTimeout(connection.ping(), 1_000, "redis ping"),
      withTimeout(base.db.$queryRaw`SELECT 1`, 1_000, "postgres ping"),
    ]);
    return {
      redis: redis.status === "fulfilled" ? "ok" : "down",
      postgres: postgres.status === "fulfilled" ? "ok" : "down",
    };
  };

  const startedAt = Date.now();
  const server: Server = createServer((req, res) => {
    const url = req.url?.split("?")[0];
    if (req.method === "GET" && (url === "/healthz" || url === "/health")) {
      ping().then((deps) => {
        const ok = deps.redis === "ok" && deps.postgres === "ok";
        res.writeHead(ok ? 200 : 503, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            status: ok ? "ok" : "unavailable",
            ...deps,
            workers: workers.filter((w) => w.isRunning()).length,
            pid: process.pid,
            uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
          }),
        );
      });
      return;
    }
    if (req.method === "GET" && url === "/metrics") {
      metrics.registry
        .metrics()
        .then((body) => {
          res.writeHead(200, { "content-type": metrics.registry.contentType });
          res.end(body);
        })
        .catch(() => {
          res.writeHead(500);
          res.end();
        });
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"detail":"Not Found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.WORKER_HEALTH_PORT, config.HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info(
    { port, queues: JOB_NAMES, prefix: config.QUEUE_PREFIX, backend: usesSvix(config) ? "svix" : "builtin" },
    "worker started",
  );

  let closing: Promise<{ clean: boolean }> | undefined;
  const close = () => {
    closing ??= (async () => {
      const grace = opts.shutdownGraceMs ?? 10_000;
      log.info({ graceMs: grace }, "worker stopping: no new jobs, waiting for active ones");
      let clean = true;
      stopping.abort();
      try {
        // close() stops fetching at once and resolves when active jobs have finished.
        await withTimeout(Promise.all(workers.map((w) => w.close())), grace, "waiting for active jobs");
        await Promise.allSettled([queues.close(), jobs.close()]);
      } catch (err) {
        // Out of time: the jobs still running go back to their queues now (BullMQ's stall check
        // would return them only after their lock lapsed, up to 45 s later), for the next worker.
        // A webhook delivery is idempotent: whatever this process recorded as delivered is never
        // sent again, and an attempt still in flight keeps its claim (attempt timeout + 10 s), so
        // the next worker's run waits for it rather than sending alongside it.
        clean = false;
        const held = [...active.values()];
        const returned = await withTimeout(
          Promise.allSettled(held.map(({ job, token }) => job.moveToWait(token))),
          1_000,
          "returning active jobs",
        ).catch(() => []);
        log.warn(
          {
            err: (err as Error).message,
            returned: returned.filter((r) => r.status === "fulfilled").length,
            held: held.map(({ job }) => `${job.queueName}:${job.id}`),
          },
          "shutdown: active jobs returned to their queues",
        );
      }
      const rest = async () => {
        // BullMQ never quits a connection it was given.
        await closeRedis(connection);
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive sockets (a scraper's, a probe's) would otherwise hold close() open.
        server.closeAllConnections();
        await serverClosed;
        await base.db.$disconnect();
      };
      await withTimeout(rest(), 3_000, "closing connections").catch((err: Error) => {
        clean = false;
        log.warn({ err: err.message }, "connections did not close in time");
      });
      log.info({ clean }, "worker stopped");
      return { clean };
    })();
    return closing;
  };

  return { port, deps, metrics, close };
}
