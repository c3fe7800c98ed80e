/**
 * `npm run bench:scale` — Breakwater past one process, run rather than promised: a 3-master
 * loopback Redis Cluster, 2 SDK API servers, 2 dashboards and 2 workers, all on the cluster, driven
 * by the fleet simulator through both SDK servers; then checks, each printed PASS or FAIL:
 *   1. a hard_deny project hammered through both servers ends over its limit by no more than the
 *      reservations in flight;
 *   2. every breaker event is delivered exactly once (a local receiver counts webhook-ids);
 *   3. a breaker report sent to SDK server A shows on a fleet page open on dashboard B within 2 s;
 *   4. a key revoked on dashboard A is refused by both SDK servers within 1 s;
 *   5. a project's admission limit holds across both servers (admitted ≤ limit × 1.1);
 *   6. checks/s and p99 on the cluster beside standalone Redis (2 more SDK servers on a private
 *      redis-server, same settings), interleaved round by round in the same run.
 * Exit code 1 when any check fails. Everything it starts is stopped at the end (also on failure
 * and Ctrl-C). Postgres: the server of DATABASE_URL, database `breakwater_bench_scale`.
 * Options: --sim-seconds N (20), --perf-rounds N (3), --perf-seconds N (3), --updates N (20).
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseConfig, processEnv } from "@breakwater/config";
import {
  createApiKey,
  createOrganization,
  createProject,
  createWebhookEndpoint,
  newId,
  systemCtx,
} from "@breakwater/core";
import { closeRedis, createRedisClient, whenReady } from "@breakwater/queue";
import {
  freePort,
  type PrivateCluster,
  type PrivateRedis,
  startPrivateCluster,
  startPrivateRedis,
  startWebhookReceiver,
} from "@breakwater/queue/testing";
import { type Browser, chromium } from "playwright-core";
import { Webhook } from "svix";
import { distBuildReason, webBuildReason } from "../../scripts/launcher/workspace";
import { FleetSimulator } from "../../simulator/simulator";
import { WireClient } from "../../simulator/wire-client";
import { createToolDeps } from "../../src/deps";
import { repoRoot } from "../../src/paths";
import { seed } from "../../src/seed";
import type { ClosedResult, Job, OpenResult } from "../wire/loadgen";
import { checkBodies } from "../wire/workload";
import { checkBody, closeAgents, post } from "./http";
import { killAllProcsNow, type Proc, startProc, stopAllProcs, stopProc, waitHttp } from "./procs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    "sim-seconds": { type: "string", default: "20" },
    "perf-rounds": { type: "string", default: "3" },
    "perf-seconds": { type: "string", default: "3" },
    updates: { type: "string", default: "20" },
  },
});
const SIM_SECONDS = Number(flags["sim-seconds"]);
const PERF_ROUNDS = Number(flags["perf-rounds"]);
const PERF_SECONDS = Number(flags["perf-seconds"]);
const UPDATES = Number(flags.updates);
/** Our ports: HTTP servers in 3700–3799, cluster nodes in 7400–7499 (bus ports +10000). */
const HTTP_PORTS: [number, number] = [3700, 3799];
const CLUSTER_PORTS: [number, number] = [7400, 7499];
const DEADLINE_MS = 12 * 60_000;

const log = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

interface Check {
  name: string;
  pass: boolean;
  detail: string;
}
const checks: Check[] = [];
const verdict = (name: string, pass: boolean, detail: string) => {
  checks.push({ name, pass, detail });
  log(`  ${pass ? "PASS" : "FAIL"}  ${name} — ${detail}`);
};

const cleanups: (() => Promise<unknown> | unknown)[] = [];
async function cleanup() {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
  await stopAllProcs();
}

function runToEnd(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const p: ChildProcess = spawn(cmd, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout?.on("data", (c: Buffer) => {
      out = (out + c.toString()).slice(-8000);
    });
    p.stderr?.on("data", (c: Buffer) => {
      out = (out + c.toString()).slice(-8000);
    });
    cleanups.push(() => p.exitCode === null && p.kill("SIGTERM"));
    p.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${out}`)),
    );
  });
}

async function distinctFreePorts(n: number, [lo, hi]: [number, number], taken: number[] = []) {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort(lo, hi);
    // Cluster bus ports are port + 10000: keep them apart too.
    if (!out.includes(p) && !taken.includes(p) && (await freePortFree(p + 10_000))) out.push(p);
  }
  return out;
}
async function freePortFree(p: number): Promise<boolean> {
  return freePort(p, p).then(
    () => true,
    () => false,
  );
}

/** A load generator process (the wire bench's), one job at a time over IPC. */
function startGenerator() {
  const g = fork(path.join(here, "..", "wire", "loadgen.ts"), [], {
    cwd: repoRoot,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  cleanups.push(() => g.exitCode === null && g.kill("SIGKILL"));
  return {
    run<T>(job: Job): Promise<T> {
      return new Promise((resolve, reject) => {
        const onExit = () => reject(new Error("the load generator exited"));
        g.once("exit", onExit);
        g.once("message", (m: { ok: boolean; result?: T; error?: string }) => {
          g.off("exit", onExit);
          if (m.ok) resolve(m.result as T);
          else reject(new Error(`load generator: ${m.error}`));
        });
        g.send(job);
      });
    },
    stop: () => g.exitCode === null && g.kill("SIGKILL"),
  };
}

async function main() {
  const started = Date.now();
  const base = parseConfig(processEnv());
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = "/breakwater_bench_scale";
  const databaseUrl = dbUrl.toString();
  log(
    `bench:scale — ${cpus().length} CPUs, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, node ${process.version}`,
  );

  // ── builds: as `npm start` decides them ──
  const web = path.join(repoRoot, "apps/web");
  const builds: string[] = [];
  const webReason = webBuildReason(repoRoot, web);
  if (webReason) builds.push(`@breakwater/web (${webReason})`);
  const workerReason = distBuildReason(repoRoot, path.join(repoRoot, "apps/worker"));
  if (workerReason) builds.push(`@breakwater/worker (${workerReason})`);
  const wireReason = distBuildReason(repoRoot, path.join(repoRoot, "packages/wire"));
  if (wireReason) builds.push(`@breakwater/wire (${wireReason})`);
  const buildEnv = {
    ...processEnv(),
    NEXT_TELEMETRY_DISABLED: "1",
    TURBO_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
  };
  if (builds.length) log(`setup: building ${builds.join(", ")} (a first dashboard build takes minutes)…`);
  const buildStep = builds.length
    ? runToEnd(
        path.join(repoRoot, "node_modules", ".bin", "turbo"),
        [
          "run",
          "build",
          ...builds.map((b) => `--filter=${b.split(" ")[0]}`),
          "--output-logs=errors-only",
          "--ui=stream",
        ],
        buildEnv,
      )
    : Promise.resolve();

  // ── infrastructure: the cluster, the database ──
  const clusterPorts = await distinctFreePorts(3, CLUSTER_PORTS);
  log(`setup: 3-master Redis Cluster on ${clusterPorts.join(", ")}; database breakwater_bench_scale…`);
  // Registered before it resolves: a Ctrl-C during the cluster's start still stops its nodes.
  const starting = startPrivateCluster({ ports: clusterPorts });
  cleanups.push(() => starting.then((c) => c.stop()));
  const cluster: PrivateCluster = await starting;
  const { ensurePostgresDatabase } = await import("../../scripts/launcher/probe");
  const ok = await ensurePostgresDatabase(databaseUrl);
  if (!ok.ok) throw new Error(`Postgres for the benchmark: ${ok.reason}`);
  // One secrets key for the run: endpoint secrets sealed here are opened by the workers.
  const envBase: NodeJS.ProcessEnv = {
    ...processEnv(),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  };
  delete envBase.REDIS_CLUSTER_NODES;
  await runToEnd("npm", ["run", "-s", "-w", "@breakwater/db", "prisma", "--", "migrate", "deploy"], envBase);

  const clusterEnv: NodeJS.ProcessEnv = {
    ...envBase,
    REDIS_URL: `redis://127.0.0.1:${clusterPorts[0]}/0`,
    REDIS_CLUSTER_NODES: cluster.nodes,
  };
  const config = parseConfig(clusterEnv);
  const deps = createToolDeps(config, "bench");
  cleanups.push(() => deps.db.$disconnect());
  const ctx = systemCtx(deps, "bench");
  const scratch = mkdtempSync(path.join(tmpdir(), "bw-bench-scale-"));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  // Earlier runs' tenants (a killed run leaves them): their webhooks must not reach this receiver.
  await deps.db.organization.deleteMany({ where: { name: { startsWith: "Scale bench " } } });
  await seed(ctx, { dataDir: scratch, demo: false });

  // ── tenants ──
  const stamp = new Date().toISOString();
  const org = await createOrganization(ctx, { name: `Scale bench ${stamp}`, planSlug: "business" });
  await deps.db.entitlementOverride.create({
    data: {
      id: newId("ovr"),
      organizationId: org.id,
      featureKey: "admission_rate_per_second",
      value: 1_000_000,
      reason: "scale benchmark: load phases measure the engine, not the limiter",
    },
  });
  const limited = await createOrganization(ctx, {
    name: `Scale bench limited ${stamp}`,
    planSlug: "business",
  });
  const ADMISSION_LIMIT = 100;
  await deps.db.entitlementOverride.create({
    data: {
      id: newId("ovr"),
      organizationId: limited.id,
      featureKey: "admission_rate_per_second",
      value: ADMISSION_LIMIT,
      reason: "scale benchmark: the admission limit under test",
    },
  });
  const project = async (organizationId: string, name: string, extra: object = {}) => {
    const p = await createProject(ctx, { organizationId, name, ...extra });
    const { apiKey, key } = await createApiKey(ctx, { projectId: p.id, name: "bench" });
    return { id: p.id, apiKey, keyId: key.id };
  };
  const HARD_LIMIT_USD = 1;
  const sims = [await project(org.id, "fleet-a"), await project(org.id, "fleet-b")];
  const hard = await project(org.id, "hard-deny", { mode: "hard_deny", limits: { monthly: HARD_LIMIT_USD } });
  const perf = await project(org.id, "perf", { limits: { monthly: 1_000_000 } });
  const revokeMe = await project(org.id, "revoke");
  const admission = await project(limited.id, "admission", { limits: { monthly: 1_000_000 } });

  // The webhook receiver: every delivery's webhook-id, verified with the endpoint's secret.
  let secret = "";
  const arrivals = new Map<string, number>();
  let badSignatures = 0;
  const receiver = await startWebhookReceiver({
    port: 0,
    verify: (body, headers) => new Webhook(secret).verify(body, headers),
    onReceive: (r) => {
      if (!r.verified) badSignatures++;
      arrivals.set(r.webhookId, (arrivals.get(r.webhookId) ?? 0) + 1);
    },
  });
  cleanups.push(() => receiver.close());
  secret = (await createWebhookEndpoint(ctx, { organizationId: org.id, url: receiver.url })).secret;

  await buildStep;
  for (const [what, file] of [
    ["the dashboard's production build", path.join(web, ".next", "BUILD_ID")],
    ["the worker bundle", path.join(repoRoot, "apps/worker/dist/worker.mjs")],
    ["the SDK API bundle", path.join(repoRoot, "packages/wire/dist/sdk-api.mjs")],
  ] as const)
    if (!existsSync(file)) throw new Error(`${what} is missing (${file})`);

  // ── the processes, all on the cluster ──
  const httpPorts = await distinctFreePorts(8, HTTP_PORTS);
  const [sdkA, sdkB, webA, webB, wkA, wkB, sdkC, sdkD] = httpPorts as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const authSecret = randomBytes(24).toString("hex");
  const shared: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    AUTH_SECRET: authSecret,
    QUEUE_PREFIX: "bwscale",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
  };
  const sdkBin = path.join(repoRoot, "packages/wire/dist/sdk-api.mjs");
  const { SDK_API_NODE_FLAGS } = (await import(
    pathToFileURL(path.join(repoRoot, "packages/wire/bin/node-flags.mjs")).href
  )) as { SDK_API_NODE_FLAGS: string[] };
  const startSdk = (name: string, port: number, env: NodeJS.ProcessEnv) =>
    startProc(
      name,
      [...SDK_API_NODE_FLAGS, "--enable-source-maps", sdkBin],
      // One process per replica: the replicas are what this bench scales.
      { cwd: repoRoot, env: { ...env, ...shared, SDK_PORT: String(port), SDK_API_WORKERS: "1" } },
      log,
    );
  log(
    `setup: SDK API servers on ${sdkA}, ${sdkB}; dashboards on ${webA}, ${webB}; workers (health ${wkA}, ${wkB})…`,
  );
  const procs: Record<string, Proc> = {
    sdkA: startSdk("SDK API A", sdkA, clusterEnv),
    sdkB: startSdk("SDK API B", sdkB, clusterEnv),
    workerA: startProc(
      "worker A",
      [path.join(repoRoot, "apps/worker/dist/worker.mjs")],
      {
        cwd: path.join(repoRoot, "apps/worker"),
        env: { ...clusterEnv, ...shared, WORKER_HEALTH_PORT: String(wkA) },
      },
      log,
    ),
    workerB: startProc(
      "worker B",
      [path.join(repoRoot, "apps/worker/dist/worker.mjs")],
      {
        cwd: path.join(repoRoot, "apps/worker"),
        env: { ...clusterEnv, ...shared, WORKER_HEALTH_PORT: String(wkB) },
      },
      log,
    ),
  };
  for (const [key, port] of [
    ["webA", webA],
    ["webB", webB],
  ] as const) {
    procs[key] = startProc(
      `dashboard ${key.slice(-1)}`,
      ["server.mjs", "--port", String(port), "--hostname", "127.0.0.1"],
      {
        cwd: web,
        env: { ...clusterEnv, ...shared, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
      },
      log,
    );
  }
  const A = `http://127.0.0.1:${sdkA}`;
  const B = `http://127.0.0.1:${sdkB}`;
  const WA = `http://127.0.0.1:${webA}`;
  const WB = `http://127.0.0.1:${webB}`;
  await Promise.all([
    waitHttp(`${A}/health`, "SDK API A", procs.sdkA!),
    waitHttp(`${B}/health`, "SDK API B", procs.sdkB!),
    waitHttp(`http://127.0.0.1:${wkA}/healthz`, "worker A", procs.workerA!),
    waitHttp(`http://127.0.0.1:${wkB}/healthz`, "worker B", procs.workerB!),
    waitHttp(`${WA}/health`, "dashboard A", procs.webA!, 180_000),
    waitHttp(`${WB}/health`, "dashboard B", procs.webB!, 180_000),
  ]);
  log(`setup: everything answers (${((Date.now() - started) / 1000).toFixed(0)} s)`);

  // ── 1. the simulator through both SDK servers ──
  log(`simulate: 2 projects × 2 fleets (one per SDK server) × 25 instances × 3 providers, ${SIM_SECONDS} s…`);
  const providers = ["openai", "anthropic", "google"];
  const fleets = sims.flatMap((p, i) =>
    [A, B].map(
      (baseUrl, j) =>
        new FleetSimulator({
          baseUrl,
          apiKey: p.apiKey,
          projectId: p.id,
          instances: 25,
          providers,
          seed: 100 + i * 10 + j,
          callRate: 0.5,
          maxInFlight: 16,
          autoOutages: false,
        }),
    ),
  );
  // Simulated time runs 6× faster than the clock (still within the 5-minute future bound), so
  // outages open breakers and the 60 s recovery window lets them probe and close within the run.
  const t0 = Date.now();
  const speed = 6;
  const simNow = () => t0 + (Date.now() - t0) * speed;
  for (const f of fleets) {
    for (const inst of f.instances) inst.reportAll(t0);
    // Each fleet's primary goes down a third of the way in, for 60 simulated seconds.
  }
  const simEnd = Date.now() + SIM_SECONDS * 1000;
  let outageStarted = false;
  while (Date.now() < simEnd) {
    const now = simNow();
    if (!outageStarted && Date.now() > t0 + (SIM_SECONDS * 1000) / 4) {
      outageStarted = true;
      for (const f of fleets) {
        f.forceOutage("openai", "down", 60_000);
        // forceOutage ends by the wall clock; the simulated clock is faster.
        const o = f.outages.get("openai")!;
        o.until = now + 60_000;
      }
    }
    for (const f of fleets) f.tick(now);
    await sleep(1000 / speed);
  }
  const endNow = simNow();
  for (const f of fleets) for (const inst of f.instances) if (!inst.silent) inst.flush(endNow);
  await Promise.all(fleets.map((f) => f.drain()));
  const simStats = fleets.reduce(
    (s, f) => ({
      checks: s.checks + f.stats.checks,
      confirms: s.confirms + f.stats.confirms,
      events: s.events + f.stats.events,
      reports: s.reports + f.stats.reports,
      errors: s.errors + f.stats.errors,
    }),
    { checks: 0, confirms: 0, events: 0, reports: 0, errors: 0 },
  );
  const lastError = fleets.find((f) => f.stats.lastError)?.stats.lastError;
  log(
    `  ${simStats.checks} checks, ${simStats.confirms} confirms, ${simStats.events} events, ${simStats.reports} breaker reports, ${simStats.errors} wire errors${lastError ? ` (last: ${lastError})` : ""}`,
  );

  // ── 2. every breaker event delivered exactly once ──
  const expected = await deps.db.webhookEvent.findMany({
    where: { organizationId: org.id, deliverable: true },
    select: { id: true },
  });
  const expectedIds = new Set(expected.map((e) => e.id));
  const deliveredAll = async () => {
    for (const id of expectedIds) if (!arrivals.has(id)) return false;
    return true;
  };
  const deliveryDeadline = Date.now() + 60_000;
  while (!(await deliveredAll()) && Date.now() < deliveryDeadline) await sleep(200);
  await sleep(3_000); // a redelivery would come now
  const missing = [...expectedIds].filter((id) => !arrivals.has(id)).length;
  const duplicates = [...arrivals.values()].filter((n) => n > 1).length;
  const strangers = [...arrivals.keys()].filter((id) => !expectedIds.has(id)).length;
  verdict(
    "breaker events delivered exactly once",
    expectedIds.size > 0 && missing === 0 && duplicates === 0 && strangers === 0 && badSignatures === 0,
    `${expectedIds.size} events, ${expectedIds.size - missing} delivered, ${missing} missing, ${duplicates} delivered twice or more, ${strangers} unknown ids, ${badSignatures} bad signatures (2 workers)`,
  );
  if (missing > 0)
    for (const w of [procs.workerA!, procs.workerB!]) log(`  ${w.name} said:\n${w.tail().slice(-1500)}`);
  const simOk = simStats.errors === 0;
  verdict(
    "simulator through both SDK servers",
    simOk,
    `${simStats.errors} wire errors over ${simStats.checks + simStats.reports + simStats.confirms} calls`,
  );

  // ── 3. report to SDK A → fleet page on dashboard B ──
  log(`live: Chromium on dashboard B's /fleet, ${UPDATES} breaker reports to SDK API A…`);
  const browser: Browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  cleanups.push(() => browser.close());
  const context = await browser.newContext({ baseURL: WB });
  const email = `scale-${randomUUID().slice(0, 8)}@bench.example.test`;
  const signUp = await context.request.post("/api/auth/sign-up/email", {
    data: { name: "Scale Admin", email, password: "correct horse battery staple" },
    headers: { origin: WB },
  });
  if (!signUp.ok())
    throw new Error(`sign-up on dashboard B failed: ${signUp.status()} ${await signUp.text()}`);
  const user = await deps.db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  await deps.db.member.create({
    data: { id: newId("mem"), organizationId: org.id, userId: user.id, role: "admin" },
  });
  const active = await context.request.post("/api/trpc/organization.setActive", {
    data: { json: { organizationId: org.id } },
    headers: { origin: WB },
  });
  if (!active.ok()) throw new Error(`setActive on dashboard B: ${active.status()} ${await active.text()}`);
  const page = await context.newPage();
  await page.goto("/fleet");
  const liveProject = sims[1]!;
  const cellOf = (status?: string) =>
    page.locator(
      `[data-testid="fleet-cell"][data-project="${liveProject.id}"][data-provider="mistral"]${status ? `[data-status="${status}"]` : ""}`,
    );
  const liveClient = new WireClient(A, liveProject.apiKey);
  const instance = `scale-live-${randomUUID().slice(0, 8)}`;
  let at = Date.now();
  await liveClient.breakerReport(liveProject.id, {
    provider: "mistral",
    state: "closed",
    failure_count: 0,
    success_count: 0,
    reported_at: new Date(at).toISOString(),
    sdk_instance_id: instance,
  });
  await page.reload();
  await cellOf().waitFor({ timeout: 60_000 });
  await page.locator('[data-live="streaming"]').waitFor({ timeout: 30_000 });
  const live: number[] = [];
  for (let i = 0; i < UPDATES; i++) {
    const state = i % 2 === 0 ? "open" : "closed";
    const want = state === "open" ? "Down" : "Healthy";
    at = Math.max(Date.now(), at + 1);
    const tStart = performance.now();
    await liveClient.breakerReport(liveProject.id, {
      provider: "mistral",
      state,
      failure_count: state === "open" ? 3 : 0,
      success_count: 0,
      reported_at: new Date(at).toISOString(),
      sdk_instance_id: instance,
    });
    await cellOf(want)
      .waitFor({ timeout: 10_000 })
      .then(
        () => live.push(performance.now() - tStart),
        () => live.push(Number.POSITIVE_INFINITY),
      );
  }
  verdict(
    "report to SDK A shows on dashboard B within 2 s",
    pct(live, 95) <= 2_000,
    `${UPDATES} updates: p50 ${pct(live, 50).toFixed(0)} ms, p95 ${pct(live, 95).toFixed(0)} ms, max ${Math.max(...live).toFixed(0)} ms (report sent to SDK A → cell changed in Chromium on dashboard B; target p95 ≤ 2 s as in bench:fleet)`,
  );

  // ── 4. a key revoked on dashboard A, refused by both SDK servers ──
  log("revoke: key warmed on both SDK servers, revoked through dashboard A's tRPC…");
  for (const s of [A, B]) {
    for (let i = 0; i < 3; i++) {
      const r = await post(s, "/api/v1/budgets/check", revokeMe.apiKey, checkBody());
      if (r.status !== 200) throw new Error(`the key to revoke answered ${r.status} on ${s}: ${r.body}`);
    }
  }
  const ctxA = await browser.newContext({ baseURL: WA });
  cleanups.push(() => ctxA.close());
  const signIn = await ctxA.request.post("/api/auth/sign-in/email", {
    data: { email, password: "correct horse battery staple" },
    headers: { origin: WA },
  });
  if (!signIn.ok())
    throw new Error(`sign-in on dashboard A failed: ${signIn.status()} ${await signIn.text()}`);
  const activeA = await ctxA.request.post("/api/trpc/organization.setActive", {
    data: { json: { organizationId: org.id } },
    headers: { origin: WA },
  });
  if (!activeA.ok()) throw new Error(`setActive on dashboard A: ${activeA.status()} ${await activeA.text()}`);
  const refusedAfter: Record<string, number> = {};
  const tRevoke = performance.now();
  const probes = [A, B].map(async (s) => {
    for (;;) {
      const r = await post(s, "/api/v1/budgets/check", revokeMe.apiKey, checkBody());
      if (r.status === 401) {
        refusedAfter[s] = performance.now() - tRevoke;
        return;
      }
      if (performance.now() - tRevoke > 10_000) {
        refusedAfter[s] = Number.POSITIVE_INFINITY;
        return;
      }
      await sleep(20);
    }
  });
  const revoke = await ctxA.request.post("/api/trpc/apiKey.revoke", {
    data: { json: { keyId: revokeMe.keyId } },
    headers: { origin: WA },
  });
  const revokeMs = performance.now() - tRevoke;
  if (!revoke.ok())
    throw new Error(`apiKey.revoke on dashboard A: ${revoke.status()} ${await revoke.text()}`);
  await Promise.all(probes);
  // Refused for good: no server answers the key again.
  const again = await Promise.all(
    [A, B].map((s) => post(s, "/api/v1/budgets/check", revokeMe.apiKey, checkBody())),
  );
  // The revocation exists once dashboard A has answered the mutation; from then on both servers
  // must refuse within 1 s (a refusal before the answer counts as 0 ms).
  const afterAnswer = (s: string) => Math.max(0, refusedAfter[s]! - revokeMs);
  verdict(
    "key revoked on dashboard A refused by both SDK servers within 1 s",
    afterAnswer(A) <= 1_000 && afterAnswer(B) <= 1_000 && again.every((r) => r.status === 401),
    `SDK A ${afterAnswer(A).toFixed(0)} ms, SDK B ${afterAnswer(B).toFixed(0)} ms after dashboard A answered the revoke (sent → answered ${revokeMs.toFixed(0)} ms; sent → refused ${refusedAfter[A]!.toFixed(0)} / ${refusedAfter[B]!.toFixed(0)} ms)`,
  );
  await browser.close();

  // ── 5. hard_deny hammered through both servers ──
  log(`hard_deny: $${HARD_LIMIT_USD} monthly limit, 8 callers per SDK server checking and confirming…`);
  const CALLERS = 8;
  const perServer: Record<string, { allowed: number; denied: number; errors: number }> = {
    [A]: { allowed: 0, denied: 0, errors: 0 },
    [B]: { allowed: 0, denied: 0, errors: 0 },
  };
  const counters = createRedisClient(config, "producer", { connectionName: "bench-scale" });
  cleanups.push(() => closeRedis(counters));
  if (!(await whenReady(counters, 10_000))) throw new Error("the cluster client did not become ready");
  const heldKey = `bw:bud:{${hard.id}}:held`;
  // One reservation's size: what one check holds (then settled like the rest).
  const first = JSON.parse((await post(A, "/api/v1/budgets/check", hard.apiKey, checkBody())).body) as {
    reservation_id: string;
  };
  const reservationUsd = Number((await counters.hget(heldKey, "p")) ?? 0) / 1e9;
  await post(B, "/api/v1/budgets/confirm", hard.apiKey, {
    reservation_id: first.reservation_id,
    model: "gpt-4o",
    provider: "openai",
    is_provider_fallback: false,
    call_id: randomUUID(),
    token_details: { input_tokens: 1000, output_tokens: config.DEFAULT_OUTPUT_TOKEN_BOUND },
  });
  let lastAllow = Date.now() + 5_000; // the first checks load the project's runtime
  const hammerEnd = Date.now() + 60_000;
  await Promise.all(
    [A, B].flatMap((s) =>
      Array.from({ length: CALLERS }, async () => {
        // Until nothing has been allowed for 1.5 s (the limit is reached), or a minute.
        while (Date.now() - lastAllow < 1_500 && Date.now() < hammerEnd) {
          const r = await post(s, "/api/v1/budgets/check", hard.apiKey, checkBody());
          if (r.status !== 200) {
            perServer[s]!.errors++;
            continue;
          }
          const v = JSON.parse(r.body) as {
            allowed: boolean;
            reservation_id?: string | null;
            budget_limit: number;
            current_usage: number;
            remaining_budget: number;
          };
          if (!v.allowed) {
            perServer[s]!.denied++;
            continue;
          }
          perServer[s]!.allowed++;
          lastAllow = Date.now();
          const c = await post(s === A ? B : A, "/api/v1/budgets/confirm", hard.apiKey, {
            reservation_id: v.reservation_id,
            model: "gpt-4o",
            provider: "openai",
            is_provider_fallback: false,
            call_id: randomUUID(),
            // The call used what was reserved: the estimate and the output bound.
            token_details: { input_tokens: 1000, output_tokens: config.DEFAULT_OUTPUT_TOKEN_BOUND },
          });
          if (c.status < 200 || c.status >= 300) perServer[s]!.errors++;
        }
      }),
    ),
  );
  const month = new Date().toISOString().slice(0, 7);
  const usageNanos = Number((await counters.get(`bw:bud:{${hard.id}}:u:m:${month}`)) ?? 0);
  const heldNanos = Number((await counters.hget(heldKey, "p")) ?? 0);
  const spentUsd = (usageNanos + heldNanos) / 1e9;
  const inFlight = CALLERS * 2;
  const over = spentUsd - HARD_LIMIT_USD;
  const allowed = perServer[A]!.allowed + perServer[B]!.allowed;
  const errors = perServer[A]!.errors + perServer[B]!.errors;
  verdict(
    "hard_deny limit holds across both SDK servers",
    over <= inFlight * reservationUsd + 1e-9 &&
      perServer[A]!.denied > 0 &&
      perServer[B]!.denied > 0 &&
      errors === 0,
    `limit $${HARD_LIMIT_USD}, spent + held $${spentUsd.toFixed(4)} (${over > 0 ? `over by $${over.toFixed(4)}` : "not over"}; bound ${inFlight} in flight × $${reservationUsd.toFixed(4)}); allowed ${perServer[A]!.allowed} on A + ${perServer[B]!.allowed} on B = ${allowed}, denied ${perServer[A]!.denied} / ${perServer[B]!.denied}, errors ${errors}`,
  );

  // ── 6. the admission limit across both servers ──
  const ADM_SECONDS = 5;
  const offered = 150; // per server and second: either server alone would exceed the limit
  log(
    `admission: limit ${ADMISSION_LIMIT}/s, ${offered}/s offered to each SDK server for ${ADM_SECONDS} whole seconds…`,
  );
  // The key and the project's policy cached on both servers first: requests that wait on a cold
  // cache would be admitted seconds after they were sent.
  for (const s of [A, B]) await post(s, "/api/v1/budgets/check", admission.apiKey, checkBody());
  // The limiter's own per-second totals (every replica's admissions, synced to the project's
  // window counter in Redis), read while the load runs.
  const windowCounts = new Map<number, number>();
  const readWindows = async () => {
    const now = Math.floor(Date.now() / 1000);
    for (let sec = now - 2; sec <= now; sec++) {
      const v = Number((await counters.get(`bw:adm:{${admission.id}}:${sec}`)) ?? 0);
      if (v > 0) windowCounts.set(sec, Math.max(windowCounts.get(sec) ?? 0, v));
    }
  };
  const poller = setInterval(() => void readWindows().catch(() => undefined), 300);
  const aligned = Math.ceil(Date.now() / 1000) * 1000 + 1000;
  const admitted: number[] = [];
  const admitStatuses: Record<string, number> = {};
  const admissionLoad = [A, B].map(async (s) => {
    await sleep(aligned - Date.now());
    const sends: Promise<void>[] = [];
    for (let i = 0; i < offered * ADM_SECONDS; i++) {
      const due = aligned + (i * 1000) / offered;
      // The last request leaves well inside the last second, so its admission lands in it.
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const sentAt = Date.now();
      sends.push(
        post(s, "/api/v1/budgets/check", admission.apiKey, checkBody()).then((r) => {
          admitStatuses[r.status] = (admitStatuses[r.status] ?? 0) + 1;
          if (r.status === 200) admitted.push(sentAt);
        }),
      );
    }
    await Promise.all(sends);
  });
  await Promise.all(admissionLoad);
  await sleep(1_200);
  clearInterval(poller);
  await readWindows();
  const perSecond = [...windowCounts.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  // The window: the seconds in which the servers admitted the load (a busy machine can stretch
  // the answers past the seconds they were sent in).
  // Seconds holding only the warm-up requests or a last straggler do not widen the window.
  const seconds = Math.max(ADM_SECONDS, perSecond.filter((n) => n > ADMISSION_LIMIT * 0.05).length);
  const cap = ADMISSION_LIMIT * seconds * 1.1;
  const maxSecond = Math.max(0, ...perSecond);
  verdict(
    "admission limit holds across both SDK servers",
    admitted.length <= cap && admitted.length >= ADMISSION_LIMIT * ADM_SECONDS * 0.5,
    `${admitted.length} admitted of ${offered * 2 * ADM_SECONDS} offered, over ${seconds} s ≤ ${cap.toFixed(0)} (limit × 1.1); the limiter's per-second totals ${perSecond.join(" ")} (busiest second ${((maxSecond / ADMISSION_LIMIT) * 100).toFixed(0)} % of the limit: replicas learn each other's counts every sync, 25 ms when the CPU allows); answers ${JSON.stringify(admitStatuses)}`,
  );

  // ── 7. checks/s and p99: cluster vs standalone ──
  log(
    "perf: dashboards, workers and browser stopped; 2 more SDK servers on a private standalone redis-server…",
  );
  await Promise.all([procs.webA!, procs.webB!, procs.workerA!, procs.workerB!].map((p) => stopProc(p)));
  const standalone: PrivateRedis = await startPrivateRedis(
    (await distinctFreePorts(1, HTTP_PORTS, httpPorts))[0],
  );
  cleanups.push(() => standalone.stop());
  const standaloneEnv: NodeJS.ProcessEnv = { ...envBase, REDIS_URL: standalone.url };
  const C = `http://127.0.0.1:${sdkC}`;
  const D = `http://127.0.0.1:${sdkD}`;
  procs.sdkC = startSdk("SDK API C (standalone)", sdkC, standaloneEnv);
  procs.sdkD = startSdk("SDK API D (standalone)", sdkD, standaloneEnv);
  await Promise.all([
    waitHttp(`${C}/health`, "SDK API C", procs.sdkC),
    waitHttp(`${D}/health`, "SDK API D", procs.sdkD),
  ]);
  const gens = [startGenerator(), startGenerator()];
  const bodies = checkBodies();
  const headers = { authorization: `Bearer ${perf.apiKey}`, "content-type": "application/json" };
  const pairs = {
    cluster: [sdkA, sdkB],
    standalone: [sdkC, sdkD],
  } as const;
  const OPEN_RATE = 150; // per server: what this 2-core machine can offer and serve on time
  const CONNECTIONS = 16; // per server
  // Warm-up: connections, JIT, runtime caches, counters rebuilt.
  for (const ports of Object.values(pairs))
    await Promise.all(
      ports.map((port, i) =>
        gens[i]!.run<OpenResult>({
          op: "open",
          port,
          path: "/api/v1/budgets/check",
          headers,
          bodies,
          rate: 200,
          seconds: 2,
        }),
      ),
    );
  const perfRes = {
    cluster: { open: [] as OpenResult[], closed: [] as ClosedResult[] },
    standalone: { open: [] as OpenResult[], closed: [] as ClosedResult[] },
  };
  log(
    `perf: ${PERF_ROUNDS} rounds per side, interleaved: open loop ${OPEN_RATE}/s per server (p99), closed loop ${CONNECTIONS} connections per server (checks/s), ${PERF_SECONDS} s each…`,
  );
  for (let round = 0; round < PERF_ROUNDS; round++) {
    const order =
      round % 2 === 0 ? (["cluster", "standalone"] as const) : (["standalone", "cluster"] as const);
    for (const side of order) {
      await sleep(300);
      const open = await Promise.all(
        pairs[side].map((port, i) =>
          gens[i]!.run<OpenResult>({
            op: "open",
            port,
            path: "/api/v1/budgets/check",
            headers,
            bodies,
            rate: OPEN_RATE,
            seconds: PERF_SECONDS,
          }),
        ),
      );
      perfRes[side].open.push(...open);
      await sleep(300);
      const closed = await Promise.all(
        pairs[side].map((port, i) =>
          gens[i]!.run<ClosedResult>({
            op: "closed",
            port,
            path: "/api/v1/budgets/check",
            headers,
            bodies,
            connections: CONNECTIONS,
            seconds: PERF_SECONDS,
          }),
        ),
      );
      perfRes[side].closed.push(...closed);
    }
  }
  for (const g of gens) g.stop();
  const summary = (side: "cluster" | "standalone") => {
    const r = perfRes[side];
    const lat = r.open.flatMap((o) => o.latencies);
    const sent = r.open.reduce((n, o) => n + o.sent, 0);
    const okOpen = r.open.reduce((n, o) => n + o.ok, 0);
    // Two servers ran side by side: checks/s is their sum over the same seconds.
    const rounds = PERF_ROUNDS;
    const closed2xx = r.closed.reduce((n, c) => n + c.requests2xx, 0);
    const closedSecs = r.closed.reduce((n, c) => n + c.elapsedSeconds, 0) / 2;
    return {
      checksPerSecond: closed2xx / closedSecs,
      closedNon2xx: r.closed.reduce((n, c) => n + c.non2xx + c.errors, 0),
      closedP99: Math.max(...r.closed.map((c) => c.p99)),
      openP50: pct(lat, 50),
      openP99: pct(lat, 99),
      openOk: okOpen,
      openSent: sent,
      sendLagP99: Math.max(...r.open.map((o) => o.sendLagP99)),
      rounds,
    };
  };
  const cl = summary("cluster");
  const st = summary("standalone");
  log("");
  log(`${"".padEnd(36)}${"cluster".padStart(12)}${"standalone".padStart(12)}${"ratio".padStart(8)}`);
  const row = (label: string, a: number, b: number, digits = 2) =>
    log(
      `${label.padEnd(36)}${a.toFixed(digits).padStart(12)}${b.toFixed(digits).padStart(12)}${(a / b).toFixed(2).padStart(8)}`,
    );
  row(`checks/s, 2 servers × ${CONNECTIONS} conns`, cl.checksPerSecond, st.checksPerSecond, 0);
  row(`  closed-loop p99 (ms)`, cl.closedP99, st.closedP99);
  row(`open ${OPEN_RATE * 2}/s p50 (ms)`, cl.openP50, st.openP50);
  row(`open ${OPEN_RATE * 2}/s p99 (ms)`, cl.openP99, st.openP99);
  log(
    `  open loop: cluster ${cl.openOk}/${cl.openSent} 200, standalone ${st.openOk}/${st.openSent} 200; generator send lag p99 ${cl.sendLagP99.toFixed(1)} / ${st.sendLagP99.toFixed(1)} ms; closed-loop non-2xx/errors ${cl.closedNon2xx} / ${st.closedNon2xx}`,
  );
  // A check answers 200, or the documented 503 when Redis cannot answer within the deadline
  // (the SDK fails open); anything else (a 500, a dropped connection) is a failure.
  const strays = (side: "cluster" | "standalone") =>
    perfRes[side].open.reduce(
      (n, o) =>
        n + Object.entries(o.statuses).reduce((m, [k, v]) => (k === "200" || k === "503" ? m : m + v), 0),
      0,
    ) + perfRes[side].closed.reduce((n, c) => n + c.errors, 0);
  const statusesOf = (side: "cluster" | "standalone") => {
    const out: Record<string, number> = {};
    for (const o of perfRes[side].open)
      for (const [k, v] of Object.entries(o.statuses)) out[k] = (out[k] ?? 0) + v;
    return JSON.stringify(out);
  };
  log(`  open-loop answers: cluster ${statusesOf("cluster")}, standalone ${statusesOf("standalone")}`);
  verdict(
    "checks/s and p99, cluster beside standalone (every check answered 200 or the documented 503)",
    strays("cluster") === 0 && strays("standalone") === 0,
    `cluster ${cl.checksPerSecond.toFixed(0)} checks/s, p99 ${cl.openP99.toFixed(1)} ms; standalone ${st.checksPerSecond.toFixed(0)} checks/s, p99 ${st.openP99.toFixed(1)} ms (cluster ÷ standalone: ${(cl.checksPerSecond / st.checksPerSecond).toFixed(2)} checks/s, ${(cl.openP99 / st.openP99).toFixed(2)} p99)`,
  );

  const failed = checks.filter((c) => !c.pass);
  const result = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version, loadavg_after: loadavg() },
    wall_seconds: Math.round((Date.now() - started) / 1000),
    simulator: simStats,
    checks,
    perf: {
      cluster: cl,
      standalone: st,
      open_rate_per_server: OPEN_RATE,
      connections_per_server: CONNECTIONS,
    },
    live_update_ms: live.map((x) => Math.round(x)),
    revoke_ms: { a: Math.round(refusedAfter[A]!), b: Math.round(refusedAfter[B]!) },
  };
  log("");
  log(
    `bench:scale — ${checks.length - failed.length} of ${checks.length} checks passed, ${result.wall_seconds} s`,
  );
  log(`JSON ${JSON.stringify({ checks: checks.map((c) => [c.name, c.pass]), perf: result.perf })}`);
  mkdirSync(path.join(here, "results"), { recursive: true });
  writeFileSync(path.join(here, "results", "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  return failed.length === 0;
}

const watchdog = setTimeout(() => {
  log(`bench:scale: over ${DEADLINE_MS / 60_000} minutes, aborting`);
  void cleanup().finally(() => process.exit(1));
}, DEADLINE_MS);
watchdog.unref();
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(sig, () => {
    log("interrupted: stopping everything the run started…");
    void cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", () => killAllProcsNow());

main().then(
  async (ok) => {
    closeAgents();
    await cleanup();
    process.exit(ok ? 0 : 1);
  },
  async (err: unknown) => {
    log(`bench:scale failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    closeAgents();
    await cleanup();
    process.exit(1);
  },
);
