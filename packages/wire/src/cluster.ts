import cluster, { type Worker } from "node:cluster";
import type { Server } from "node:http";
import { availableParallelism } from "node:os";
import type { Config } from "@breakwater/config";
import type { Logger } from "pino";
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from "prom-client";
import { createMetricsServer } from "./metrics-server";

/**
 * SDK_API_WORKERS > 1: the lean SDK API server as a node:cluster. The primary holds SDK_PORT and
 * hands each new connection to a worker, round-robin; a worker is a whole SDK API process
 * (runtime, caches, pools — caches stay correct across workers because every invalidation travels
 * over Redis pub/sub). The primary restarts a crashed worker with backoff, replaces the workers one
 * at a time on SIGHUP (each new one listening before the old one drains), drains them all on
 * SIGTERM/SIGINT, and serves their Prometheus metrics summed on SDK_METRICS_PORT.
 */

/** Upper bound of the default: each worker holds its own Postgres pools (up to 20 connections). */
export const DEFAULT_MAX_SDK_API_WORKERS = 4;

/** SDK_API_WORKERS, or the number of cores up to DEFAULT_MAX_SDK_API_WORKERS. */
export function sdkApiWorkerCount(
  config: Pick<Config, "SDK_API_WORKERS">,
  cores = availableParallelism(),
): number {
  return config.SDK_API_WORKERS ?? Math.max(1, Math.min(DEFAULT_MAX_SDK_API_WORKERS, cores));
}

/** Messages between the primary and its workers (over the cluster's IPC channel). */
export const CLUSTER_MESSAGES = {
  /** primary → worker: drain and exit (rolling restart, shutdown). */
  drain: "breakwater:drain",
  /** primary → worker → primary: the worker's metrics as JSON (`id` pairs the answer). */
  metrics: "breakwater:metrics",
  /** worker → primary, just before a drained worker exits: its final counters. */
  finalMetrics: "breakwater:final-metrics",
} as const;

interface ClusterMessage {
  cmd?: string;
  id?: number;
  metrics?: MetricObjectWithValues<MetricValue<string>>[];
}

/** Restart delay after the n-th crash in a row: 1 s doubling to 30 s. */
export function restartDelayMs(crashesInARow: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, crashesInARow - 1));
}
/** A worker that ran this long before crashing starts the backoff over. */
const BACKOFF_RESET_MS = 60_000;

interface Slot {
  index: number;
  worker: Worker | null;
  /** Listening (it answers requests); false while booting. */
  ready: boolean;
  startedAt: number;
  crashesInARow: number;
  restartTimer: NodeJS.Timeout | null;
}

export interface PrimaryHandle {
  /** Replaces the workers one at a time (what SIGHUP does); resolves when done or given up. */
  rollingRestart(): Promise<boolean>;
  /** Drains every worker and resolves when all have exited (what SIGTERM does before exiting). */
  stop(reason: string): Promise<boolean>;
}

/**
 * Runs the cluster's primary: forks `count` workers of this same entry point and supervises them.
 * Signals: SIGTERM/SIGINT drain and stop (exit within SHUTDOWN_TIMEOUT_MS), SIGHUP replaces the
 * workers one at a time.
 */
export function runPrimary(config: Config, count: number, log: Logger): PrimaryHandle {
  const timeoutMs = config.SHUTDOWN_TIMEOUT_MS;
  const slots: Slot[] = Array.from({ length: count }, (_, index) => ({
    index,
    worker: null,
    ready: false,
    startedAt: 0,
    crashesInARow: 0,
    restartTimer: null,
  }));
  /** Workers being drained on purpose (rolling restart, shutdown): their exit is no crash. */
  const retiring = new Set<Worker>();
  let stopping: Promise<boolean> | null = null;
  let rolling: Promise<boolean> | null = null;

  const registry = new Registry();
  new Gauge({
    name: "breakwater_sdk_api_workers",
    help: "SDK API worker processes listening on SDK_PORT (node:cluster)",
    registers: [registry],
    collect() {
      this.set(slots.filter((s) => s.ready).length);
    },
  });
  const restarts = new Counter({
    name: "breakwater_sdk_api_worker_restarts_total",
    help: "SDK API workers started in place of another: crash (restarted by the primary) or rolling (SIGHUP)",
    labelNames: ["reason"],
    registers: [registry],
  });

  const fork = (slot: Slot): Worker => {
    const worker = cluster.fork({ BREAKWATER_SDK_WORKER: String(slot.index) });
    slot.startedAt = Date.now();
    worker.on("message", (m: ClusterMessage) => {
      if (m?.cmd === CLUSTER_MESSAGES.finalMetrics && m.metrics) retire(worker, m.metrics);
    });
    return worker;
  };

  const start = (slot: Slot) => {
    slot.restartTimer = null;
    slot.ready = false;
    const worker = fork(slot);
    slot.worker = worker;
    worker.once("listening", () => {
      if (slot.worker === worker) slot.ready = true;
    });
  };

  cluster.on("exit", (worker, code, signal) => {
    if (retiring.delete(worker)) return;
    const slot = slots.find((s) => s.worker === worker);
    if (!slot) return;
    slot.worker = null;
    slot.ready = false;
    if (stopping) return;
    const ranMs = Date.now() - slot.startedAt;
    if (ranMs >= BACKOFF_RESET_MS) slot.crashesInARow = 0;
    slot.crashesInARow += 1;
    const delay = restartDelayMs(slot.crashesInARow);
    log.error(
      { worker: slot.index, pid: worker.process.pid, code, signal, ranMs, restartInMs: delay },
      "SDK API worker exited unexpectedly; restarting",
    );
    slot.restartTimer = setTimeout(() => {
      if (stopping) return;
      restarts.inc({ reason: "crash" });
      start(slot);
      log.info({ worker: slot.index, pid: slot.worker?.process.pid }, "SDK API worker restarted");
    }, delay);
  });

  /** Asks a worker to drain; resolves when it has exited (SIGKILL past the bound). */
  const drainWorker = (worker: Worker): Promise<boolean> =>
    new Promise((resolve) => {
      if (worker.isDead()) return resolve(true);
      retiring.add(worker);
      const kill = setTimeout(() => {
        log.warn({ pid: worker.process.pid }, "SDK API worker did not exit in time; killing it");
        worker.process.kill("SIGKILL");
      }, timeoutMs + 500);
      worker.once("exit", (code) => {
        clearTimeout(kill);
        resolve(code === 0);
      });
      if (worker.isConnected()) worker.send({ cmd: CLUSTER_MESSAGES.drain });
      else worker.process.kill("SIGTERM");
    });

  /** Resolves true once `worker` listens, false when it exits first or `ms` pass. */
  const listening = (worker: Worker, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        worker.off("listening", onListening);
        worker.off("exit", onExit);
        resolve(ok);
      };
      const onListening = () => done(true);
      const onExit = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      worker.once("listening", onListening);
      worker.once("exit", onExit);
    });

  const rollingRestart = (): Promise<boolean> => {
    if (stopping) return Promise.resolve(false);
    if (rolling) {
      log.info("SIGHUP: a rolling restart is already running");
      return rolling;
    }
    rolling = (async () => {
      const t0 = Date.now();
      log.info({ workers: count }, "rolling restart: replacing the SDK API workers one at a time");
      for (const slot of slots) {
        if (stopping) return false;
        const old = slot.worker;
        if (slot.restartTimer) {
          clearTimeout(slot.restartTimer);
          slot.restartTimer = null;
        }
        const next = fork(slot);
        // The new worker must listen before the old one stops taking connections.
        if (!(await listening(next, 60_000))) {
          log.error(
            { worker: slot.index },
            "rolling restart: the new worker did not start listening; stopped here",
          );
          retiring.add(next);
          next.process.kill("SIGKILL");
          return false;
        }
        restarts.inc({ reason: "rolling" });
        slot.worker = next;
        slot.ready = true;
        slot.crashesInARow = 0;
        if (old) {
          const clean = await drainWorker(old);
          log.info(
            { worker: slot.index, old: old.process.pid, new: next.process.pid, clean },
            "rolling restart: worker replaced",
          );
        }
      }
      log.info({ ms: Date.now() - t0 }, "rolling restart done");
      return true;
    })().finally(() => {
      rolling = null;
    });
    return rolling;
  };

  const stop = (reason: string): Promise<boolean> => {
    stopping ??= (async () => {
      log.info({ reason, workers: count }, "SDK API stopping: draining every worker");
      for (const s of slots) if (s.restartTimer) clearTimeout(s.restartTimer);
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
      const results = await Promise.all(workers.map(drainWorker));
      await new Promise<void>((r) => (metricsServer ? metricsServer.close(() => r()) : r()));
      return results.every(Boolean);
    })();
    return stopping;
  };

  // ── metrics: every worker's registry summed, plus what drained workers had counted ──
  let retired: MetricObjectWithValues<MetricValue<string>>[] = [];
  const retiredWorkers = new WeakSet<Worker>();
  /** Counters and histograms of a worker that drained: kept, so the sums never go backwards. */
  let folding = Promise.resolve();
  const retire = (worker: Worker, metrics: MetricObjectWithValues<MetricValue<string>>[]) => {
    const monotonic = metrics.filter((m) => {
      const type = m.type as unknown as string;
      return type === "counter" || type === "histogram";
    });
    folding = folding.then(async () => {
      retired = (await AggregatorRegistry.aggregate([retired, monotonic]).getMetricsAsJSON()) as never;
      retiredWorkers.add(worker);
    });
  };
  let nextId = 0;
  const pending = new Map<number, (m: ClusterMessage["metrics"]) => void>();
  cluster.on("message", (_worker, m: ClusterMessage) => {
    if (m?.cmd === CLUSTER_MESSAGES.metrics && m.id !== undefined) pending.get(m.id)?.(m.metrics);
  });
  const ask = (worker: Worker) =>
    new Promise<{ worker: Worker; metrics: ClusterMessage["metrics"] }>((resolve) => {
      const id = nextId++;
      const done = (metrics: ClusterMessage["metrics"]) => {
        clearTimeout(timer);
        pending.delete(id);
        resolve({ worker, metrics });
      };
      const timer = setTimeout(() => done(undefined), 2_000);
      pending.set(id, done);
      try {
        worker.send({ cmd: CLUSTER_MESSAGES.metrics, id });
      } catch {
        done(undefined);
      }
    });
  const summed = {
    async metrics(): Promise<string> {
      // Listening workers and the ones draining (whose counts are not yet retired).
      const asked = [...slots.filter((s) => s.ready).map((s) => s.worker!), ...retiring].filter(
        (w) => w.isConnected() && !retiredWorkers.has(w),
      );
      const answers = await Promise.all([...new Set(asked)].map(ask));
      await folding;
      // A worker whose final counts arrived meanwhile is in `retired` already.
      const live = answers.filter((a) => a.metrics && !retiredWorkers.has(a.worker)).map((a) => a.metrics!);
      return AggregatorRegistry.aggregate([...live, retired]).metrics();
    },
  };
  let metricsServer: Server | undefined;
  if (config.SDK_METRICS_PORT !== undefined) {
    metricsServer = createMetricsServer(() => [summed, registry]);
    metricsServer.listen(config.SDK_METRICS_PORT, config.METRICS_HOST, () => {
      log.info(
        { port: config.SDK_METRICS_PORT, host: config.METRICS_HOST },
        "SDK API metrics listening (summed over the workers)",
      );
    });
  }

  for (const slot of slots) start(slot);
  log.info(
    { pid: process.pid, workers: count, port: config.SDK_PORT },
    "SDK API primary started; SIGHUP replaces the workers one at a time",
  );

  let exiting = false;
  const shutdown = (signal: string) => {
    if (exiting) return;
    exiting = true;
    const force = setTimeout(() => {
      log.error("SDK API workers did not stop in time; exiting");
      process.exit(1);
    }, timeoutMs + 1_000);
    force.unref();
    void stop(signal).then((clean) => process.exit(clean ? 0 : 1));
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGHUP", () => void rollingRestart());
  return { rollingRestart, stop };
}
