import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Config, parseConfig, processEnv } from "@breakwater/config";
import { type Deps, systemCtx } from "@breakwater/core";
import { createDb } from "@breakwater/db";
import { createJobsClient } from "@breakwater/queue";
import { freePort } from "@breakwater/queue/testing";
import { pino } from "pino";

const here = path.dirname(fileURLToPath(import.meta.url));
const workerRoot = path.resolve(here, "..");

/**
 * Config for a test run: the test database, a private Redis, a unique queue prefix, and webhooks
 * allowed to reach the loopback receivers the tests run.
 */
export function harnessConfig(redisUrl: string, extra: Record<string, string> = {}): Config {
  return parseConfig({
    ...processEnv(),
    REDIS_URL: redisUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    QUEUE_PREFIX: `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    ...extra,
  });
}

/** Deps for the test process: what the SDK API process would hold (producer-side jobs client). */
export function producerDeps(config: Config): Deps & { close(): Promise<void> } {
  const db = createDb(config.DATABASE_URL, { max: 10 });
  const jobs = createJobsClient(config);
  const deps: Deps = { db, config, log: pino({ level: "silent" }), jobs };
  return {
    ...deps,
    async close() {
      await jobs.close();
      await db.$disconnect();
    },
  };
}

export const sysCtx = (deps: Deps) => systemCtx(deps);

export interface WorkerProcess {
  proc: ChildProcess;
  /** Its /healthz and /metrics port. */
  port: number;
  logs: string[];
  /** Sends a signal and waits for the process to exit; resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `apps/worker/src/main.ts` as a real process and waits until /healthz answers 200. */
export async function spawnWorker(
  config: Config,
  port?: number,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const healthPort = port ?? (await freePort());
  // node --import tsx: one process (the tsx CLI would put a parent in front of it), so a
  // SIGKILL hits the worker itself, like the OOM killer would.
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: workerRoot,
    env: {
      ...processEnv(),
      DATABASE_URL: config.DATABASE_URL,
      REDIS_URL: config.REDIS_URL,
      QUEUE_PREFIX: config.QUEUE_PREFIX,
      BREAKER_STALE_SECONDS: String(config.BREAKER_STALE_SECONDS),
      PUBLIC_URL: config.PUBLIC_URL,
      WEBHOOK_ALLOW_PRIVATE_URLS: String(config.WEBHOOK_ALLOW_PRIVATE_URLS),
      WORKER_HEALTH_PORT: String(healthPort),
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  // WORKER_TEST_LOG=<file> appends every spawned worker's output there, for debugging a run.
  const logFile = processEnv().WORKER_TEST_LOG;
  const keep = (b: Buffer) => {
    logs.push(b.toString());
    if (logFile) appendFileSync(logFile, `[${proc.pid}] ${b.toString()}`);
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`worker exited early:\n${logs.join("")}`);
    // The pid check makes sure it is this process answering, not a leftover on the same port.
    const ok = await fetch(`http://127.0.0.1:${healthPort}/healthz`)
      .then(async (r) => r.status === 200 && ((await r.json()) as { pid?: number }).pid === proc.pid)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`worker not healthy within 20 s:\n${logs.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    proc,
    port: healthPort,
    logs,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}
