/**
 * `npm run soak -- --minutes N` — Breakwater as deployed, under a steady mix for N minutes: does
 * memory stay flat, does the tail stay where it started, does anything fail?
 *
 * Starts the production builds — the lean SDK API server, the dashboard (server.mjs + Next.js) and
 * the worker — on a database of its own (`breakwater_bench_soak` on the server of DATABASE_URL) and
 * a private redis-server, then drives them open loop from a separate process (driver.ts): budget
 * checks and their confirms, ingest of the confirmed calls' events, breaker heartbeats, lease
 * grant/renew/surrender, signed-in dashboard page reads. Every 10 s it samples each process's RSS
 * (/proc/<pid>/status) and V8 heap (its Prometheus metrics). Prints per minute p50/p99 per endpoint,
 * errors and memory; at the end the verdict:
 *   - RSS growth of each process after the first 5 minutes (a fifth of a shorter run) ≤ 10 %;
 *   - per endpoint, p99 of the last 5 minutes ≤ 1.2 × p99 of the first 5 (a fifth likewise);
 *   - no 5xx and no request left without an answer.
 * Exit code 1 when any criterion fails. Results: tooling/bench/soak/results/<date>-<N>min.json and
 * latest.json. Options: --minutes N (30), --checks R (200/s), --heartbeats R (100/s), --leases R
 * (5 grants/s), --pages R (2/s), --warmup S (30 s, not measured).
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseConfig, processEnv } from "@breakwater/config";
import { createApiKey, createOrganization, createProject, newId, systemCtx } from "@breakwater/core";
import { closeRedis, createRedisClient } from "@breakwater/queue";
import { freePort, type PrivateRedis, startPrivateRedis } from "@breakwater/queue/testing";
import { ensurePostgresDatabase } from "../../scripts/launcher/probe";
import { distBuildReason, webBuildReason } from "../../scripts/launcher/workspace";
import { createToolDeps } from "../../src/deps";
import { repoRoot } from "../../src/paths";
import { seed } from "../../src/seed";
import { killAllProcsNow, type Proc, startProc, stopAllProcs, waitHttp } from "../scale/procs";
import type { DriverJob, DriverMessage } from "./driver";
import { ENDPOINTS, fmtMs, type MemorySample, type MinuteReport, mb, summarize, verdict } from "./report";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    checks: { type: "string", default: "200" },
    heartbeats: { type: "string", default: "100" },
    leases: { type: "string", default: "5" },
    pages: { type: "string", default: "2" },
    warmup: { type: "string", default: "30" },
  },
});
const num = (name: keyof typeof flags, min: number) => {
  const v = Number(flags[name]);
  if (!Number.isFinite(v) || v < min) {
    process.stderr.write(`soak: --${name} must be a number ≥ ${min}, got "${flags[name]}"\n`);
    process.exit(2);
  }
  return v;
};
const MINUTES = Math.floor(num("minutes", 1));
const RATES = {
  checks: num("checks", 0),
  heartbeats: num("heartbeats", 0),
  leases: num("leases", 0),
  pages: num("pages", 0),
};
const WARMUP_SECONDS = num("warmup", 0);
const SAMPLE_MS = 10_000;
const PROVIDERS = ["openai", "anthropic", "google"];
const PROJECTS = 4;

const log = (s: string) => process.stdout.write(`${s}\n`);
const cleanups: (() => Promise<unknown> | unknown)[] = [];
async function cleanup() {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
  await stopAllProcs();
}

function runToEnd(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const p: ChildProcess = spawn(cmd, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const keep = (c: Buffer) => {
      out = (out + c.toString()).slice(-8000);
    };
    p.stdout?.on("data", keep);
    p.stderr?.on("data", keep);
    cleanups.push(() => p.exitCode === null && p.kill("SIGTERM"));
    p.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}\n${out}`)),
    );
  });
}

/** Resident set size of a process (bytes), from /proc; null once it is gone. */
function rssOf(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The child processes of `pid` (Linux: /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** `nodejs_heap_size_used_bytes` from a Prometheus endpoint, or null. */
async function heapUsed(metricsUrl: string): Promise<number | null> {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(3_000) })).text();
    const m = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([0-9.e+]+)$/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** A tiny cookie jar for the dashboard's sign-in (better-auth sets its session cookie). */
function cookiesFrom(res: Response, jar: Map<string, string>): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const i = pair!.indexOf("=");
    if (i > 0) jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
  }
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

async function main(): Promise<boolean> {
  const started = Date.now();
  const base = parseConfig(processEnv());
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = "/breakwater_bench_soak";
  const databaseUrl = dbUrl.toString();
  const loadAtStart = loadavg();
  log(
    `soak — ${MINUTES} min measured after ${WARMUP_SECONDS} s of warm-up; ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GB, load ${loadAtStart.map((l) => l.toFixed(2)).join(" ")}, node ${process.version}`,
  );
  log(
    `  offered: ${RATES.checks} checks/s (+ confirms, + their events in batches), ${RATES.heartbeats} heartbeats/s, ${RATES.leases} lease grants/s (+3 renewals, surrender), ${RATES.pages} dashboard pages/s`,
  );

  // ── builds, as `npm start` decides them ──
  const web = path.join(repoRoot, "apps/web");
  const builds: string[] = [];
  const webReason = webBuildReason(repoRoot, web);
  if (webReason) builds.push(`@breakwater/web (${webReason})`);
  const workerReason = distBuildReason(repoRoot, path.join(repoRoot, "apps/worker"));
  if (workerReason) builds.push(`@breakwater/worker (${workerReason})`);
  const wireReason = distBuildReason(repoRoot, path.join(repoRoot, "packages/wire"));
  if (wireReason) builds.push(`@breakwater/wire (${wireReason})`);
  if (builds.length) {
    log(`setup: building ${builds.join(", ")} (a first dashboard build takes minutes)…`);
    await runToEnd(
      path.join(repoRoot, "node_modules", ".bin", "turbo"),
      [
        "run",
        "build",
        ...builds.map((b) => `--filter=${b.split(" ")[0]}`),
        "--output-logs=errors-only",
        "--ui=stream",
      ],
      {
        ...processEnv(),
        NEXT_TELEMETRY_DISABLED: "1",
        TURBO_TELEMETRY_DISABLED: "1",
        CHECKPOINT_DISABLE: "1",
      },
    );
  }
  for (const [what, file] of [
    ["the dashboard's production build", path.join(web, ".next", "BUILD_ID")],
    ["the worker bundle", path.join(repoRoot, "apps/worker/dist/worker.mjs")],
    ["the SDK API bundle", path.join(repoRoot, "packages/wire/dist/sdk-api.mjs")],
  ] as const)
    if (!existsSync(file)) throw new Error(`${what} is missing (${file})`);

  // ── stores: a private redis-server, the soak's own database ──
  const redisStarting = startPrivateRedis();
  cleanups.push(() => redisStarting.then((r) => r.stop()));
  const redis: PrivateRedis = await redisStarting;
  const ok = await ensurePostgresDatabase(databaseUrl);
  if (!ok.ok) throw new Error(`Postgres for the soak: ${ok.reason}`);
  const env: NodeJS.ProcessEnv = {
    ...processEnv(),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    LOG_LEVEL: "warn",
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  };
  delete env.REDIS_CLUSTER_NODES;
  log(`setup: redis-server on ${redis.port}; database breakwater_bench_soak (migrate, seed)…`);
  await runToEnd("npm", ["run", "-s", "-w", "@breakwater/db", "prisma", "--", "migrate", "deploy"], env);
  const config = parseConfig(env);
  const deps = createToolDeps(config, "bench");
  cleanups.push(() => deps.db.$disconnect());
  const ctx = systemCtx(deps, "bench");
  await deps.db.organization.deleteMany({ where: { name: { startsWith: "Soak " } } });
  const scratch = mkdtempSync(path.join(tmpdir(), "bw-soak-"));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  await seed(ctx, { dataDir: scratch, demo: false });

  const org = await createOrganization(ctx, {
    name: `Soak ${new Date().toISOString()}`,
    planSlug: "business",
  });
  await deps.db.entitlementOverride.create({
    data: {
      id: newId("ovr"),
      organizationId: org.id,
      featureKey: "admission_rate_per_second",
      value: 1_000_000,
      reason: "soak: steady load, not the admission limiter",
    },
  });
  const projects: DriverJob["projects"] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const p = await createProject(ctx, {
      organizationId: org.id,
      name: `soak-${i}`,
      limits: { monthly: 1_000_000 },
    });
    const { apiKey } = await createApiKey(ctx, { projectId: p.id, name: "soak" });
    projects.push({ id: p.id, apiKey });
  }

  // ── the processes, as deployed ──
  const ports: number[] = [];
  while (ports.length < 6) {
    const p = await freePort(3800, 3899);
    if (!ports.includes(p)) ports.push(p);
  }
  const [sdkPort, sdkMetrics, webPort, webMetrics, workerPort, _spare] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const shared: NodeJS.ProcessEnv = {
    ...env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    AUTH_SECRET: randomBytes(24).toString("hex"),
    QUEUE_PREFIX: "bwsoak",
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
  };
  const { SDK_API_NODE_FLAGS } = (await import(
    pathToFileURL(path.join(repoRoot, "packages/wire/bin/node-flags.mjs")).href
  )) as { SDK_API_NODE_FLAGS: string[] };
  log(`setup: SDK API on ${sdkPort}, dashboard on ${webPort}, worker (health ${workerPort})…`);
  const procs: Record<string, Proc> = {
    "SDK API": startProc(
      "SDK API",
      [...SDK_API_NODE_FLAGS, path.join(repoRoot, "packages/wire/dist/sdk-api.mjs")],
      { cwd: repoRoot, env: { ...shared, SDK_PORT: String(sdkPort), SDK_METRICS_PORT: String(sdkMetrics) } },
      log,
    ),
    worker: startProc(
      "worker",
      [path.join(repoRoot, "apps/worker/dist/worker.mjs")],
      { cwd: path.join(repoRoot, "apps/worker"), env: { ...shared, WORKER_HEALTH_PORT: String(workerPort) } },
      log,
    ),
    // With the SDK API's node flags, server.mjs serves in this process (no relaunch wrapper).
    dashboard: startProc(
      "dashboard",
      [...SDK_API_NODE_FLAGS, "server.mjs", "--port", String(webPort), "--hostname", "127.0.0.1"],
      {
        cwd: web,
        env: {
          ...shared,
          PORT: String(webPort),
          PUBLIC_URL: `http://127.0.0.1:${webPort}`,
          WEB_METRICS_PORT: String(webMetrics),
        },
      },
      log,
    ),
  };
  const SDK = `http://127.0.0.1:${sdkPort}`;
  const WEB = `http://127.0.0.1:${webPort}`;
  await Promise.all([
    waitHttp(`${SDK}/health`, "SDK API", procs["SDK API"]!),
    waitHttp(`http://127.0.0.1:${workerPort}/healthz`, "worker", procs.worker!),
    waitHttp(`${WEB}/health`, "dashboard", procs.dashboard!, 180_000),
  ]);

  // ── a signed-in dashboard session, admin of the soak organization ──
  const jar = new Map<string, string>();
  const email = `soak-${randomUUID().slice(0, 8)}@bench.example.test`;
  const signUp = await fetch(`${WEB}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: WEB },
    body: JSON.stringify({ name: "Soak Admin", email, password: "correct horse battery staple" }),
  });
  if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  cookiesFrom(signUp, jar);
  const user = await deps.db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  await deps.db.member.create({
    data: { id: newId("mem"), organizationId: org.id, userId: user.id, role: "admin" },
  });
  const active = await fetch(`${WEB}/api/trpc/organization.setActive`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: WEB, cookie: cookieHeader(jar) },
    body: JSON.stringify({ json: { organizationId: org.id } }),
  });
  if (!active.ok) throw new Error(`organization.setActive: ${active.status} ${await active.text()}`);
  cookiesFrom(active, jar);
  const pages = [
    "/usage",
    "/fleet",
    "/projects",
    `/projects/${projects[0]!.id}`,
    `/projects/${projects[1]!.id}/usage`,
    `/projects/${projects[2]!.id}/runs`,
    "/webhooks",
    "/audit",
  ];
  for (const p of pages) {
    const r = await fetch(`${WEB}${p}`, { headers: { cookie: cookieHeader(jar) }, redirect: "manual" });
    await r.arrayBuffer();
    if (r.status !== 200)
      throw new Error(`dashboard page ${p} answered ${r.status} to the signed-in session`);
  }

  // ── the heartbeat fleet's first reports (the transactional path), before anything is measured ──
  const heartbeatPairs = Math.round(RATES.heartbeats * 60);
  const instances = Array.from(
    { length: Math.ceil(heartbeatPairs / PROVIDERS.length) },
    (_, i) => `soak-sdk-${i}`,
  );
  log(`setup: first breaker reports of ${instances.length} SDK instances × ${PROVIDERS.length} providers…`);
  {
    let next = 0;
    const pairs = instances.flatMap((inst) => PROVIDERS.map((provider) => ({ inst, provider })));
    const failures: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (;;) {
          const n = next++;
          const pair = pairs[n];
          if (!pair) return;
          const proj = projects[n % projects.length]!; // the driver sends pair n's heartbeats there too
          const r = await fetch(`${SDK}/api/v1/projects/${proj.id}/providers/breaker-reports`, {
            method: "POST",
            headers: { authorization: `Bearer ${proj.apiKey}`, "content-type": "application/json" },
            body: JSON.stringify({
              provider: pair.provider,
              state: "closed",
              failure_count: 0,
              success_count: 1,
              reported_at: new Date(Date.now() - 60_000).toISOString(),
              sdk_instance_id: pair.inst,
            }),
          });
          await r.arrayBuffer();
          if (r.status !== 202) failures.push(r.status);
        }
      }),
    );
    if (failures.length) throw new Error(`first breaker reports: ${failures.length} failed (${failures[0]})`);
  }
  log(
    `setup: everything answers (${((Date.now() - started) / 1000).toFixed(0)} s); warm-up ${WARMUP_SECONDS} s…`,
  );

  // ── what gets sampled: every process of each service (the dashboard is server.mjs + Next.js) ──
  const metricsOf: Record<string, string> = {
    "SDK API": `http://127.0.0.1:${sdkMetrics}/metrics`,
    worker: `http://127.0.0.1:${workerPort}/metrics`,
    dashboard: `http://127.0.0.1:${webMetrics}/metrics`,
  };
  const sampled: { name: string; pid: number; metrics?: string }[] = [];
  for (const [name, p] of Object.entries(procs)) {
    const pid = p.child.pid!;
    sampled.push({ name, pid, metrics: metricsOf[name] });
    // The dashboard's Next.js process; an SDK API run as several processes, its workers.
    for (const [i, c] of childrenOf(pid).entries()) {
      const child = name === "dashboard" ? "dashboard (Next.js)" : `${name} (child ${i + 1})`;
      sampled.push({ name: child, pid: c });
    }
  }
  const memory: Record<string, MemorySample[]> = Object.fromEntries(sampled.map((s) => [s.name, []]));
  const load: { t: number; load1: number }[] = [];
  // Redis's own memory, for reading the run (not judged: keys that live an hour — settled
  // reservations, confirmed call ids, lease tombstones — grow through a shorter soak by design).
  const redisMemory: { t: number; usedBytes: number }[] = [];
  const redisInfo = createRedisClient({ REDIS_URL: redis.url }, "publisher", {
    connectionName: "soak-sampler",
  });
  redisInfo.on("error", () => undefined);
  cleanups.push(() => closeRedis(redisInfo));

  // ── the run ──
  const driver = fork(path.join(here, "driver.ts"), [], {
    cwd: repoRoot,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  cleanups.push(() => driver.exitCode === null && driver.kill("SIGKILL"));
  const minutes: MinuteReport[] = [];
  let measuredFrom = 0;
  let sampler: NodeJS.Timeout | undefined;
  cleanups.push(() => clearInterval(sampler));
  const sample = async () => {
    const t = (Date.now() - measuredFrom) / 1000;
    load.push({ t, load1: loadavg()[0]! });
    const used = /^used_memory:(\d+)/m.exec(await redisInfo.info("memory").catch(() => ""));
    if (used) redisMemory.push({ t, usedBytes: Number(used[1]) });
    await Promise.all(
      sampled.map(async (s) => {
        const rss = rssOf(s.pid);
        if (rss === null) return;
        memory[s.name]!.push({
          t,
          rssBytes: rss,
          heapUsedBytes: s.metrics ? await heapUsed(s.metrics) : null,
        });
      }),
    );
  };
  const lastOf = (name: string) => memory[name]!.at(-1);
  const printMinute = (r: MinuteReport) => {
    const parts = ENDPOINTS.map((ep) => {
      const s = summarize([r], ep);
      if (s.requests === 0) return null;
      return `${ep} ${fmtMs(s.p50)}/${fmtMs(s.p99)}${s.errors ? ` ✗${s.errors}` : ""}`;
    }).filter(Boolean);
    const mem = sampled
      .map((s) => {
        const m = lastOf(s.name);
        return m ? `${s.name} ${mb(m.rssBytes)}${m.heapUsedBytes ? `/${mb(m.heapUsedBytes)}` : ""}` : null;
      })
      .filter(Boolean);
    log(`min ${String(r.minute + 1).padStart(3)} │ p50/p99 ms: ${parts.join(" · ")}`);
    const redisNow = redisMemory.at(-1);
    log(
      `        │ RSS/heap MB: ${mem.join(" · ")}${redisNow ? ` · Redis used ${mb(redisNow.usedBytes)}` : ""} │ load ${loadavg()[0]!.toFixed(2)} │ driver lag p99 ${fmtMs(r.sendLagP99)} ms`,
    );
  };
  await new Promise<void>((resolve, reject) => {
    driver.on("message", (m: DriverMessage) => {
      if (m.type === "warm") {
        measuredFrom = Date.now();
        log(`run: measuring ${MINUTES} min (p50/p99 per endpoint, ✗ = failed requests)`);
        void sample();
        sampler = setInterval(() => void sample(), SAMPLE_MS);
      } else if (m.type === "minute") {
        minutes.push(m.report);
        printMinute(m.report);
      } else if (m.type === "done") resolve();
      else if (m.type === "error") reject(new Error(`driver: ${m.error}`));
    });
    driver.once("exit", (code) => reject(new Error(`the driver exited (${code}) before the end`)));
    const job: DriverJob = {
      sdkPort,
      dashboardPort: webPort,
      projects,
      cookie: cookieHeader(jar),
      pages,
      rates: RATES,
      heartbeatFleet: { instances, providers: PROVIDERS },
      warmupSeconds: WARMUP_SECONDS,
      minutes: MINUTES,
    };
    driver.send(job);
  });
  clearInterval(sampler);
  for (const [name, p] of Object.entries(procs))
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(`${name} exited during the soak:\n${p.tail()}`);

  // ── the verdict ──
  const v = verdict({ minutes, totalMinutes: MINUTES, endpoints: [...ENDPOINTS], memory });
  log("");
  log(`whole run, per endpoint (${MINUTES} min):`);
  for (const ep of ENDPOINTS) {
    const s = summarize(minutes, ep);
    log(
      `  ${ep.padEnd(16)} ${String(s.requests).padStart(8)} requests  p50 ${fmtMs(s.p50).padStart(6)} ms  p99 ${fmtMs(s.p99).padStart(6)} ms  failed ${s.errors} (5xx ${s.server5xx}, no answer ${s.dropped})`,
    );
  }
  log("memory, per process (RSS; V8 heap in use where the process exposes metrics):");
  for (const s of sampled) {
    const xs = memory[s.name]!;
    if (xs.length === 0) continue;
    const rss = xs.map((x) => x.rssBytes);
    const heap = xs.map((x) => x.heapUsedBytes).filter((x): x is number => x !== null);
    log(
      `  ${s.name.padEnd(20)} RSS first ${mb(rss[0]!)} · min ${mb(Math.min(...rss))} · max ${mb(Math.max(...rss))} · last ${mb(rss.at(-1)!)} MB${heap.length ? `; heap first ${mb(heap[0]!)} · max ${mb(Math.max(...heap))} · last ${mb(heap.at(-1)!)} MB` : ""}`,
    );
  }
  if (redisMemory.length > 0)
    log(
      `  Redis used_memory first ${mb(redisMemory[0]!.usedBytes)} · last ${mb(redisMemory.at(-1)!.usedBytes)} MB (not judged: hour-long keys fill up during the first hour)`,
    );
  const loads = load.map((l) => l.load1);
  log(
    `machine load (1-min average) during the run: min ${Math.min(...loads).toFixed(2)}, max ${Math.max(...loads).toFixed(2)}, mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2)} on ${cpus().length} CPUs`,
  );
  log(`verdict (first/last window: ${v.window} min):`);
  for (const c of v.criteria) log(`  ${c.pass ? "PASS" : "FAIL"}  ${c.name} — ${c.detail}`);
  log(`soak: ${v.pass ? "PASS" : "FAIL"}`);

  const result = {
    at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      node: process.version,
      loadavg_at_start: loadAtStart,
      load1_during: { min: Math.min(...loads), max: Math.max(...loads) },
    },
    plan: { minutes: MINUTES, warmup_seconds: WARMUP_SECONDS, rates: RATES, projects: PROJECTS },
    wall_seconds: Math.round((Date.now() - started) / 1000),
    verdict: v,
    endpoints: Object.fromEntries(
      ENDPOINTS.map((ep) => [
        ep,
        {
          whole: summarize(minutes, ep),
          per_minute: minutes.map((m) => {
            const s = summarize([m], ep);
            return { minute: m.minute + 1, requests: s.requests, p50: s.p50, p99: s.p99, errors: s.errors };
          }),
        },
      ]),
    ),
    memory,
    redis_memory: redisMemory,
    load,
  };
  const dir = path.join(here, "results");
  mkdirSync(dir, { recursive: true });
  const name = `${result.at.slice(0, 10)}-${MINUTES}min.json`;
  writeFileSync(path.join(dir, name), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(dir, "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  log(`results: tooling/bench/soak/results/${name}`);
  return v.pass;
}

// Setup can take minutes (a dashboard build); the run itself is bounded by --minutes.
const DEADLINE_MS = (MINUTES + 30) * 60_000;
const watchdog = setTimeout(() => {
  log(`soak: over ${DEADLINE_MS / 60_000} minutes, aborting`);
  void cleanup().finally(() => process.exit(1));
}, DEADLINE_MS);
watchdog.unref();
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(sig, () => {
    log("interrupted: stopping everything the soak started…");
    void cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", () => killAllProcsNow());

main().then(
  async (ok) => {
    await cleanup();
    process.exit(ok ? 0 : 1);
  },
  async (err: unknown) => {
    log(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await cleanup();
    process.exit(1);
  },
);
