/**
 * `npm start`: Breakwater from a fresh clone in one command.
 *
 * 1. Postgres: DATABASE_URL when set; else LOCAL_DATABASE_URL (127.0.0.1:5432, database created when
 *    missing); else an embedded Postgres under .data/pg.
 *    Redis: REDIS_URL when set; else LOCAL_REDIS_URL (127.0.0.1:6379); else `redis-server` from PATH
 *    with its data under .data/redis; else one line naming the fixes.
 * 2. Migrate (offline Prisma wrapper), seed (plans, price catalogue, demo project and key).
 * 3. Build the dashboard when its production build is missing or older than its sources.
 * 4. Start web (`next start`), worker, and the lean SDK API server when a workspace provides one
 *    (@breakwater/wire's `start`, or any workspace's `start:sdk` script), print the URLs and the
 *    demo key, and supervise them.
 * Ctrl-C / SIGTERM stops everything it started, in order, each with a bounded wait.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Config, ConfigError, parseConfig, processEnv } from "@breakwater/config";
import { issueOperatorSetupToken, systemCtx } from "@breakwater/core";
import { createRedisClient, whenReady } from "@breakwater/queue";
import { createToolDeps } from "../src/deps";
import { dataDir, repoRoot } from "../src/paths";
import { seed } from "../src/seed";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./launcher/embedded-postgres";
import {
  describePgUrl,
  describeRedisUrl,
  ensurePostgresDatabase,
  isPortFree,
  pingRedis,
  waitFor,
} from "./launcher/probe";
import { findOnPath, type RedisServer, startRedisServer } from "./launcher/redis-server";
import { runToCompletion, Service, Supervisor } from "./launcher/service";
import {
  distBuildReason,
  hasNextApp,
  listWorkspaces,
  prismaClientStale,
  webBuildReason,
} from "./launcher/workspace";

/** A failure that ends the launch with exactly this one line (and exit code 1). */
class LaunchError extends Error {}

const env = processEnv();
const say = (line: string) => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stdout.write(`  · ${line}\n`);

let shuttingDown = false;
let exitCode = 0;
const services: Service[] = [];
const supervisors: Supervisor[] = [];
let currentStep: Service | null = null;
let postgres: EmbeddedPostgres | null = null;
let redis: RedisServer | null = null;
const runFile = path.join(dataDir, "run", "launcher.json");

async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) throw new LaunchError(err.message);
    throw err;
  }
  claimRunFile();

  const port = config.PORT;
  // Sibling ports follow PORT unless set, so `PORT=4000 npm start` needs no other change.
  const sdkPort = env.SDK_PORT ? config.SDK_PORT : port + 1;
  const workerPort = env.WORKER_HEALTH_PORT ? config.WORKER_HEALTH_PORT : port + 2;
  const publicUrl = (env.PUBLIC_URL ? config.PUBLIC_URL : `http://localhost:${port}`).replace(/\/$/, "");

  const workspaces = listWorkspaces(repoRoot);
  const web = workspaces.find((w) => w.name === "@breakwater/web");
  const worker = workspaces.find((w) => w.name === "@breakwater/worker");
  // The lean SDK API server: a workspace's `start:sdk` script, else @breakwater/wire's `start`.
  const sdkEntry = workspaces.find((w) => w.scripts["start:sdk"]);
  const wire = workspaces.find((w) => w.name === "@breakwater/wire" && w.scripts.start);
  const sdk = sdkEntry
    ? { ws: sdkEntry, script: "start:sdk" }
    : wire
      ? { ws: wire, script: "start" }
      : undefined;
  // SOLWYN_API_URL as printed below and shown by the dashboard's connect panel: the lean SDK API
  // server when one runs, else the dashboard's own /api/v1 routes.
  const sdkBase = env.SDK_PUBLIC_URL
    ? config.SDK_PUBLIC_URL!.replace(/\/+$/, "")
    : sdk
      ? `http://localhost:${sdkPort}`
      : publicUrl;
  const webReady = !!web?.scripts.build && !!web.scripts.start && hasNextApp(web.dir);
  const workerReady = !!worker?.scripts.start && existsSync(path.join(worker.dir, "src", "main.ts"));
  const workerBuilds = workerReady && !!worker.scripts.build;

  for (const [name, p, used] of [
    ["PORT", port, webReady],
    ["SDK_PORT", sdkPort, !!sdk],
    ["WORKER_HEALTH_PORT", workerPort, workerReady && workerPort !== 0],
  ] as const) {
    if (used && !(await isPortFree(p, "127.0.0.1"))) {
      throw new LaunchError(`${name} ${p} is already in use; set ${name} to a free port`);
    }
  }

  say("Starting Breakwater");
  // Redis first: if none can be had, stop before starting anything.
  const redisPlan = await planRedis(config);
  const databaseUrl = await providePostgres(config);
  const redisUrl = await provideRedis(redisPlan);
  if (shuttingDown) return;

  const authSecret = config.AUTH_SECRET ?? persistentSecret("auth-secret");
  const secretsKey = config.SECRETS_ENCRYPTION_KEY ?? persistentSecret("secrets-key");
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    NODE_ENV: env.NODE_ENV || "production",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PORT: String(port),
    SDK_PORT: String(sdkPort),
    WORKER_HEALTH_PORT: String(workerPort),
    HOST: config.HOST,
    PUBLIC_URL: publicUrl,
    SDK_PUBLIC_URL: sdkBase,
    AUTH_SECRET: authSecret,
    SECRETS_ENCRYPTION_KEY: secretsKey,
    NEXT_TELEMETRY_DISABLED: "1",
    TURBO_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
    BREAKWATER_LAUNCH_ID: launchId,
  };

  if (prismaClientStale(repoRoot)) {
    note("generating the Prisma client (schema changed)");
    await step("prisma", "npm", ["run", "-s", "-w", "@breakwater/db", "generate"], childEnv, false);
  }
  note("applying database migrations");
  await step("migrate", "npm", ["run", "-s", "-w", "@breakwater/db", "migrate:deploy"], childEnv, false);
  if (shuttingDown) return;

  const seeded = await runSeed({ ...config, DATABASE_URL: databaseUrl, SECRETS_ENCRYPTION_KEY: secretsKey });
  const demo = seeded.demo!; // the launcher always seeds the demo project
  note(
    `seeded plans, ${priceCardCount(seeded.priceCatalogue)} price cards and the demo project (${demo.projectId})`,
  );
  if (shuttingDown) return;

  if (!webReady) note("apps/web has no Next.js app in this checkout yet; the dashboard is skipped");
  const builds: { name: string; reason: string }[] = [];
  if (webReady) {
    const reason = webBuildReason(repoRoot, web.dir);
    if (reason) builds.push({ name: web.name, reason: `dashboard: ${reason}` });
  }
  if (workerBuilds) {
    const reason = distBuildReason(repoRoot, worker.dir);
    if (reason) builds.push({ name: worker.name, reason: `worker: ${reason}` });
  }
  if (sdk?.ws.scripts.build) {
    const reason = distBuildReason(repoRoot, sdk.ws.dir);
    if (reason) builds.push({ name: sdk.ws.name, reason: `SDK API server: ${reason}` });
  }
  if (builds.length) {
    note(`building (${builds.map((b) => b.reason).join("; ")}); a first build takes a few minutes`);
    await step(
      "build",
      path.join(repoRoot, "node_modules", ".bin", "turbo"),
      [
        "run",
        "build",
        ...builds.map((b) => `--filter=${b.name}`),
        "--output-logs=errors-only",
        "--ui=stream",
      ],
      childEnv,
      true,
    );
  }
  if (shuttingDown) return;

  // Each service drains on SIGTERM and exits within SHUTDOWN_TIMEOUT_MS (requests and jobs in
  // flight finish first); the launcher waits that long plus a margin before SIGKILL.
  const stopTimeoutMs = config.SHUTDOWN_TIMEOUT_MS + 5_000;
  if (webReady) {
    // `next start` and the dashboard server take port and bind address as flags; others read the env.
    const nextFlags = /^(next start|node server\.mjs)\b/.test(web.scripts.start!)
      ? ["--", "--port", String(port), "--hostname", config.HOST]
      : [];
    launch("web", ["run", "-s", "-w", web.name, "start", ...nextFlags], childEnv, stopTimeoutMs);
  }
  if (workerReady) {
    launch("worker", ["run", "-s", "-w", worker.name, "start"], childEnv, stopTimeoutMs);
  }
  if (sdk) launch("sdk", ["run", "-s", "-w", sdk.ws.name, sdk.script], childEnv, stopTimeoutMs);
  recordRun();

  const local = (p: number) => `http://127.0.0.1:${p}`;
  const healthUrl = `${publicUrl}/health`;
  let healthy = false;
  if (webReady) {
    healthy = await waitFor(() => httpOk(`${local(port)}/health`), 120_000, 250);
    if (!healthy && !shuttingDown) {
      const answers = await httpOk(`${local(port)}/`, true);
      note(
        answers
          ? "the dashboard answers but /health does not return 200 yet"
          : "the dashboard did not answer within 120 s",
      );
    }
  }
  if (sdk && !shuttingDown) await waitFor(() => httpOk(`${local(sdkPort)}/health`), 60_000, 250);
  if (shuttingDown) return;

  say("");
  say("Breakwater is running.");
  say("");
  if (webReady) say(`  Dashboard      ${publicUrl}`);
  if (seeded.setup) {
    say(`  Operator setup ${publicUrl}/setup/${seeded.setup.token}`);
    say(
      `                 one-time link to create the operator account; valid until ${seeded.setup.expiresAt.toISOString()}`,
    );
  }
  say(`  SDK base URL   SOLWYN_API_URL=${sdkBase}`);
  say(`  Demo key       SOLWYN_API_KEY=${demo.apiKey}`);
  if (webReady) say(`  Health         ${healthUrl}${healthy ? "" : "  (not answering yet)"}`);
  if (workerReady && workerPort !== 0) say(`  Worker health  ${local(workerPort)}/healthz`);
  say(
    `  Postgres       ${postgres ? `embedded, ${postgres.dataDir}, port ${postgres.port}` : describePgUrl(databaseUrl)}`,
  );
  say(
    `  Redis          ${clusterSeeds ? `cluster ${clusterSeeds}` : redis ? `redis-server, ${redis.dataDir}, port ${redis.port}` : describeRedisUrl(redisUrl)}`,
  );
  say("");
  say("  Simulate a fleet of SDK instances against the demo project (in another terminal):");
  say(`    npm run -s bw -- simulate --project ${demo.projectId} --url ${sdkBase} --key ${demo.apiKey}`);
  say("");
  say("Press Ctrl-C to stop.");
  say("");
  // Stay up until a signal even when nothing but infrastructure was started (e.g. no apps yet).
  setInterval(() => undefined, 1 << 30);
}

// ───────────────────────────── infrastructure ─────────────────────────────

/** The seed nodes when Breakwater runs on a Redis Cluster (REDIS_CLUSTER_NODES), for the banner. */
let clusterSeeds: string | undefined;

type RedisPlan = { url: string; cluster?: string } | { binary: string };

async function planRedis(config: Config): Promise<RedisPlan> {
  if (config.REDIS_CLUSTER_NODES) {
    const seeds = config.REDIS_CLUSTER_NODES.map((n) => `${n.host}:${n.port}`).join(",");
    const client = createRedisClient(config, "producer", { connectionName: "breakwater-start" });
    client.on("error", () => undefined);
    try {
      if (!(await whenReady(client, 5_000)) || (await client.ping()) !== "PONG")
        throw new LaunchError(`cannot reach the Redis Cluster at REDIS_CLUSTER_NODES (${seeds})`);
    } catch (err) {
      if (err instanceof LaunchError) throw err;
      throw new LaunchError(
        `cannot reach the Redis Cluster at REDIS_CLUSTER_NODES (${seeds}): ${(err as Error).message}`,
      );
    } finally {
      client.disconnect();
    }
    return { url: config.REDIS_URL, cluster: seeds };
  }
  if (env.REDIS_URL) {
    const r = await pingRedis(config.REDIS_URL);
    if (!r.ok)
      throw new LaunchError(
        `cannot reach Redis at REDIS_URL (${describeRedisUrl(config.REDIS_URL)}): ${r.reason}`,
      );
    return { url: config.REDIS_URL };
  }
  const r = await pingRedis(config.LOCAL_REDIS_URL);
  if (r.ok) return { url: config.LOCAL_REDIS_URL };
  const binary = findOnPath("redis-server", env.PATH);
  if (!binary) {
    throw new LaunchError(
      `no Redis: nothing answers at ${describeRedisUrl(config.LOCAL_REDIS_URL)} and redis-server is not on PATH — install redis-server (e.g. apt-get install redis-server) or set REDIS_URL`,
    );
  }
  return { binary };
}

async function provideRedis(plan: RedisPlan): Promise<string> {
  if ("url" in plan) {
    if (plan.cluster) {
      clusterSeeds = plan.cluster;
      note(`Redis Cluster: ${plan.cluster}`);
    } else note(`Redis: ${describeRedisUrl(plan.url)}`);
    return plan.url;
  }
  note(`Redis: starting ${plan.binary} (data in .data/redis)`);
  redis = await startRedisServer({ binary: plan.binary, dataRoot: dataDir, env, log: note });
  return redis.url;
}

async function providePostgres(config: Config): Promise<string> {
  if (env.DATABASE_URL) {
    const r = await ensurePostgresDatabase(config.DATABASE_URL);
    if (!r.ok) {
      throw new LaunchError(
        `cannot use Postgres at DATABASE_URL (${describePgUrl(config.DATABASE_URL)}): ${r.reason}`,
      );
    }
    note(`Postgres: ${describePgUrl(config.DATABASE_URL)}`);
    return config.DATABASE_URL;
  }
  const local = await ensurePostgresDatabase(config.LOCAL_DATABASE_URL);
  if (local.ok) {
    note(`Postgres: ${describePgUrl(config.LOCAL_DATABASE_URL)}`);
    return config.LOCAL_DATABASE_URL;
  }
  if (local.code !== "ECONNREFUSED" && local.code !== "ETIMEDOUT" && local.code !== "EHOSTUNREACH") {
    note(`Postgres at ${describePgUrl(config.LOCAL_DATABASE_URL)} is not usable (${local.reason})`);
  }
  const database = decodeURIComponent(new URL(config.LOCAL_DATABASE_URL).pathname.slice(1)) || "breakwater";
  note("Postgres: starting an embedded Postgres (data in .data/pg)");
  postgres = await startEmbeddedPostgres({ dataRoot: dataDir, database, log: note });
  const r = await ensurePostgresDatabase(postgres.url, 10_000);
  if (!r.ok) throw new LaunchError(`embedded Postgres started but is not usable: ${r.reason}`);
  return postgres.url;
}

function priceCardCount(r: {
  created: number;
  refreshed: number;
  unchanged: number;
  keptOperatorEdits: number;
}) {
  return r.created + r.refreshed + r.unchanged + r.keptOperatorEdits;
}

async function runSeed(config: Config) {
  const deps = createToolDeps(config, "seed");
  try {
    const seeded = await seed(systemCtx(deps, "seed"), { dataDir });
    // While no operator exists, each start prints a fresh one-time link (earlier ones stop working).
    const setup = await issueOperatorSetupToken(deps);
    return { ...seeded, setup };
  } finally {
    await deps.db.$disconnect();
  }
}

// ───────────────────────────── processes ─────────────────────────────

/** Runs a one-off command as its own process group; on failure, its output and one line. */
async function step(
  name: string,
  command: string,
  args: string[],
  childEnv: NodeJS.ProcessEnv,
  echo: boolean,
) {
  const { service, done } = runToCompletion({ name, command, args, cwd: repoRoot, env: childEnv, echo });
  currentStep = service;
  const { code } = await done;
  currentStep = null;
  if (shuttingDown) return;
  if (code !== 0) {
    if (!echo) for (const line of service.tail) process.stderr.write(`${name.padEnd(7)}| ${line}\n`);
    throw new LaunchError(`${name} failed (exit code ${code})`);
  }
}

/**
 * Starts a long-running service under a supervisor: a crash is logged and the service restarted
 * with backoff (1 s doubling to 30 s), while the others keep serving.
 */
function launch(name: string, npmArgs: string[], childEnv: NodeJS.ProcessEnv, stopTimeoutMs: number) {
  const svc = new Service({
    name,
    command: "npm",
    args: npmArgs,
    cwd: repoRoot,
    env: childEnv,
    stopTimeoutMs,
  });
  const supervisor = new Supervisor(svc, {
    log: (line) => say(`${new Date().toISOString()} ${line}`),
    onStart: () => {
      if (services.includes(svc)) recordRun();
    },
  });
  services.push(svc);
  supervisors.push(supervisor);
  supervisor.start();
}

async function httpOk(url: string, anyStatus = false): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000), redirect: "manual" });
    await res.body?.cancel();
    return anyStatus || res.status === 200;
  } catch {
    return false;
  }
}

/**
 * A secret generated on first start and kept in .data (32 random bytes as 64 hex digits), so
 * sessions survive restarts and stored webhook secrets stay readable.
 */
function persistentSecret(name: string): string {
  const file = path.join(dataDir, name);
  try {
    const s = readFileSync(file, "utf8").trim();
    if (s.length >= 32) return s;
  } catch {
    // first start
  }
  const s = randomBytes(32).toString("hex");
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${s}\n`, { mode: 0o600 });
  return s;
}

// ───────────────────────────── one launcher per checkout ─────────────────────────────

const launchId = randomBytes(8).toString("hex");

interface RunRecord {
  pid: number;
  launchId: string;
  children: number[];
}

/**
 * Refuses a second launcher on the same checkout, and cleans up after a launcher that was killed
 * outright (SIGKILL leaves its detached children running): their process groups are stopped if
 * their environment still carries that launcher's id, so an unrelated process that reused a pid is
 * never touched.
 */
function claimRunFile(): void {
  mkdirSync(path.dirname(runFile), { recursive: true });
  let previous: RunRecord | null = null;
  try {
    previous = JSON.parse(readFileSync(runFile, "utf8")) as RunRecord;
  } catch {
    // no earlier run
  }
  if (previous) {
    if (previous.pid !== process.pid && alive(previous.pid) && launcherOf(previous.pid)) {
      throw new LaunchError(
        `Breakwater is already running from this checkout (pid ${previous.pid}); stop it first`,
      );
    }
    for (const pgid of previous.children) {
      if (alive(pgid) && environOf(pgid).includes(`BREAKWATER_LAUNCH_ID=${previous.launchId}`)) {
        note(`stopping process group ${pgid} left over from an earlier run`);
        try {
          process.kill(-pgid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  }
  writeFileSync(runFile, JSON.stringify({ pid: process.pid, launchId, children: [] } satisfies RunRecord));
}

function recordRun(): void {
  const children = services.map((s) => s.pid).filter((p): p is number => typeof p === "number");
  writeFileSync(runFile, JSON.stringify({ pid: process.pid, launchId, children } satisfies RunRecord));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function environOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").replace(/\0/g, "\n");
  } catch {
    return "";
  }
}

function launcherOf(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("tooling/scripts/start.ts");
  } catch {
    // Without /proc (macOS) assume it is one: refusing to start twice beats killing a live launcher.
    return true;
  }
}

// ───────────────────────────── shutdown ─────────────────────────────

let shutdownPromise: Promise<void> | null = null;

/** Stops everything this launcher started, newest first, then exits. Idempotent. */
function shutdown(): Promise<void> {
  shutdownPromise ??= (async () => {
    shuttingDown = true;
    const started = currentStep !== null || services.length > 0 || redis !== null || postgres !== null;
    if (currentStep) await currentStep.stop();
    if (started) say("\nStopping Breakwater…");
    await Promise.all(supervisors.map((s) => s.stop()));
    if (redis) await redis.stop().catch(() => undefined);
    if (postgres) await postgres.stop().catch(() => undefined);
    rmSync(runFile, { force: true });
    if (started) say("Stopped.");
    process.exit(exitCode);
  })();
  return shutdownPromise;
}

// If whatever started us (npm, a terminal, a supervisor) dies without signalling us, we are
// re-parented; stop everything rather than run on unattended.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart && !shutdownPromise) {
    say("\nThe parent process went away; stopping");
    void shutdown();
  }
}, 1_000).unref();

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (shutdownPromise) return; // a second Ctrl-C while stopping: the bounded waits still apply
    void shutdown();
  });
}

try {
  await main();
} catch (err) {
  if (!shuttingDown) {
    const message =
      err instanceof LaunchError
        ? err.message
        : err instanceof Error
          ? (err.stack ?? err.message)
          : String(err);
    process.stderr.write(`npm start: ${message}\n`);
    exitCode = 1;
    await shutdown();
  }
}
