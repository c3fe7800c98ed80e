/**
 * `npm run bench:wire` — the SDK API beside this machine's limit, measured in one run with the
 * same load generator:
 *   1. budget check, open loop at a fixed rate (latency from the scheduled send time);
 *   2. budget check, closed loop (autocannon, 32 connections): peak throughput;
 *   3. ingest, batches of 50 and 1000: durable events/s beside a bare multi-row INSERT.
 * Breakwater runs as the production build of the lean SDK API server (`npm run build -w
 * @breakwater/wire`), the deployment the README recommends for the SDK API.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfigOrExit } from "@breakwater/config";
import {
  createApiKey,
  createOrganization,
  createProject,
  newId,
  seedDefaultPlans,
  systemCtx,
} from "@breakwater/core";
import { createDb } from "@breakwater/db";
import autocannon from "autocannon";
import pg from "pg";
import { pino } from "pino";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");
const env = (k: string, d: string) => process.env[k] ?? d;
const RATE = Number(env("BENCH_RATE", "2000"));
const SECONDS = Number(env("BENCH_SECONDS", "10"));
const CONNECTIONS = Number(env("BENCH_CONNECTIONS", "32"));
const INGEST_SECONDS = Number(env("BENCH_INGEST_SECONDS", "8"));
const INGEST_CONCURRENCY = Number(env("BENCH_INGEST_CONCURRENCY", "4"));
const BW_PORT = 3420;
const BARE_PORT = 3421;

const config = loadConfigOrExit();
const log = (s: string) => process.stdout.write(`${s}\n`);

// ───────────────────────────── setup ─────────────────────────────

async function setupTenant() {
  const db = createDb(config.DATABASE_URL);
  const sys = systemCtx({ db, config, log: pino({ level: "silent" }) });
  await seedDefaultPlans(db);
  const org = await createOrganization(sys, { name: `Bench ${Date.now()}`, planSlug: "business" });
  const project = await createProject(sys, {
    organizationId: org.id,
    name: "bench",
    mode: "hard_deny",
    limits: { monthly: 100_000_000 },
  });
  // The admission limit would cap the closed-loop run; the bench measures the engine, not the limit.
  await db.entitlementOverride.create({
    data: {
      id: newId("ovr"),
      organizationId: org.id,
      projectId: project.id,
      featureKey: "admission_rate_per_second",
      value: 10_000_000,
      reason: "benchmark",
    },
  });
  const { apiKey } = await createApiKey(sys, { projectId: project.id });
  await db.$disconnect();
  return { projectId: project.id, apiKey };
}

function startProcess(name: string, args: string[], extraEnv: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!stopping) log(`${name} exited early (code ${code}, signal ${signal})`);
  });
  return child;
}

let stopping = false;

async function waitHealthy(port: number, path = "/health"): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const ok = await fetch(`http://127.0.0.1:${port}${path}`, { method: path === "/health" ? "GET" : "POST" })
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${port} did not come up`);
}

// ───────────────────────────── load generators ─────────────────────────────

interface OpenLoopResult {
  p50: number;
  p99: number;
  max: number;
  errors: number;
  sent: number;
}

/** Sends `rate` req/s on a fixed schedule; latency counts from each request's scheduled time. */
function openLoop(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latency = new Float64Array(total);
  let done = 0;
  let errors = 0;
  const allHeaders = { ...headers, "content-length": String(Buffer.byteLength(body)) };
  return new Promise<OpenLoopResult>((resolve) => {
    const start = performance.now() + 20;
    let next = 0;
    const finish = (i: number, scheduled: number, ok: boolean) => {
      latency[i] = performance.now() - scheduled;
      if (!ok) errors++;
      if (++done === total) {
        agent.destroy();
        const sorted = Array.from(latency).sort((a, b) => a - b);
        const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
        resolve({ p50: q(0.5), p99: q(0.99), max: sorted[sorted.length - 1]!, errors, sent: total });
      }
    };
    const fire = (i: number, scheduled: number) => {
      const req = request(
        { agent, host: "127.0.0.1", port, path, method: "POST", headers: allHeaders },
        (res) => {
          res.on("data", () => undefined);
          res.on("end", () => finish(i, scheduled, res.statusCode === 200));
        },
      );
      req.on("error", () => finish(i, scheduled, false));
      req.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        fire(next, start + next * interval);
        next++;
      }
      if (next < total) setTimeout(tick, 1);
    };
    setTimeout(tick, 20);
  });
}

async function closedLoop(port: number, path: string, body: string, headers: Record<string, string>) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method: "POST",
    headers,
    body,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  return {
    rps: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
    p99: result.latency.p99,
  };
}

// ───────────────────────────── ingest ─────────────────────────────

let seq = 0;
function makeEvent(stamp: string, sdk: string) {
  seq++;
  const micros = String(seq % 1_000_000).padStart(6, "0");
  return {
    model: "gpt-5.5",
    provider: "openai",
    modality: "text",
    input_tokens: 1200,
    output_tokens: 300,
    token_details: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 200 },
    latency_ms: 812.5,
    status: "success",
    is_model_fallback: false,
    is_provider_fallback: false,
    attempt_index: 0,
    call_id: crypto.randomUUID(),
    sdk_instance_id: sdk,
    timestamp: `${stamp}.${micros}Z`,
    agent_run_id: `bench-run-${seq % 20}`,
    tags: { team: `t${seq % 5}` },
  };
}

function makeBatches(size: number, count: number) {
  const out: ReturnType<typeof makeEvent>[][] = [];
  for (let b = 0; b < count; b++) {
    const sdk = `bench-${newId("res")}`;
    const stamp = new Date(Date.UTC(2026, 10, 30, 12, 0, b % 60)).toISOString().slice(0, 19);
    out.push(Array.from({ length: size }, () => makeEvent(stamp, sdk)));
  }
  return out;
}

/** Runs `worker` with CONCURRENCY in parallel over the batches for at most `seconds`. */
async function drive<T>(batches: T[], seconds: number, send: (batch: T) => Promise<number>) {
  let next = 0;
  let events = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: INGEST_CONCURRENCY }, async () => {
      while (performance.now() < deadline && next < batches.length) {
        const batch = batches[next]!;
        batches[next++] = undefined as T; // let the sent batch be collected
        const n = await send(batch);
        events += n;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { eventsPerSecond: events / elapsed, events, seconds: elapsed };
}

const COLS = [
  "project_id",
  "call_id",
  "attempt_index",
  "timestamp",
  "sdk_instance_id",
  "model",
  "provider",
  "modality",
  "status",
  "input_tokens",
  "output_tokens",
  "token_details",
  "latency_ms",
  "is_model_fallback",
  "is_provider_fallback",
  "agent_run_id",
  "tags",
  "cost_usd",
  "priced",
] as const;

function bareInsert(pool: pg.Pool, projectId: string) {
  return async (batch: ReturnType<typeof makeEvent>[]) => {
    const params: unknown[] = [];
    const rows = batch.map((e) => {
      const base = params.length;
      params.push(
        projectId,
        e.call_id,
        e.attempt_index,
        e.timestamp,
        e.sdk_instance_id,
        e.model,
        e.provider,
        e.modality,
        e.status,
        e.input_tokens,
        e.output_tokens,
        JSON.stringify(e.token_details),
        Math.round(e.latency_ms),
        e.is_model_fallback,
        e.is_provider_fallback,
        e.agent_run_id,
        JSON.stringify(e.tags),
        "0.0150000000",
        true,
      );
      return `(${COLS.map((_, i) => `$${base + i + 1}`).join(",")})`;
    });
    await pool.query(`INSERT INTO metadata_events (${COLS.join(",")}) VALUES ${rows.join(",")}`, params);
    return batch.length;
  };
}

function breakwaterIngest(apiKey: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  return (batch: ReturnType<typeof makeEvent>[]) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(batch);
      const req = request(
        {
          agent,
          host: "127.0.0.1",
          port: BW_PORT,
          path: "/api/v1/metadata/ingest",
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            if (res.statusCode !== 202) return reject(new Error(`ingest answered ${res.statusCode}`));
            resolve((JSON.parse(Buffer.concat(chunks).toString()) as { ingested: number }).ingested);
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}

// ───────────────────────────── run ─────────────────────────────

const fmt = (n: number, d = 1) => n.toFixed(d);
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

async function main() {
  log("building the lean SDK API server…");
  execFileSync("npm", ["run", "-s", "build", "-w", "@breakwater/wire"], { cwd: root, stdio: "inherit" });
  const { projectId, apiKey } = await setupTenant();

  const childEnv = {
    NODE_ENV: "production",
    AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-secret-bench-secret-bench-secret-00",
    LOG_LEVEL: "warn",
    SDK_PORT: String(BW_PORT),
    HOST: "127.0.0.1",
  };
  // Same flags as the production launcher (packages/wire/bin/breakwater-sdk-api.mjs).
  const bw = startProcess(
    "breakwater",
    ["--max-semi-space-size=32", join(root, "packages/wire/dist/sdk-api.mjs")],
    childEnv,
  );
  const bare = startProcess("bare", [join(here, "bare-server.mjs")], { BARE_PORT: String(BARE_PORT) });
  const stop = () => {
    stopping = true;
    bw.kill("SIGTERM");
    bare.kill("SIGTERM");
  };
  process.on("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    await waitHealthy(BW_PORT);
    await waitHealthy(BARE_PORT, "/");

    const path = "/api/v1/budgets/check";
    const body = JSON.stringify({
      estimated_input_tokens: 1234,
      model: "gpt-5.5",
      provider: "openai",
      failover_directive_version: "1",
      price_hints_version: "1",
      run_directive_version: "1",
      fallback_providers: ["anthropic"],
      fallback_models: ["claude-sonnet-5"],
    });
    const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

    log("warming up…");
    await openLoop(BW_PORT, path, body, headers, 500, 3);
    await openLoop(BARE_PORT, path, body, headers, 500, 3);

    log(`budget check, open loop at ${RATE} req/s for ${SECONDS} s…`);
    const openBare = await openLoop(BARE_PORT, path, body, headers, RATE, SECONDS);
    const openBw = await openLoop(BW_PORT, path, body, headers, RATE, SECONDS);

    log(`budget check, closed loop (${CONNECTIONS} connections, ${SECONDS} s)…`);
    const closedBare = await closedLoop(BARE_PORT, path, body, headers);
    const closedBw = await closedLoop(BW_PORT, path, body, headers);

    log("ingest…");
    const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: INGEST_CONCURRENCY });
    const ingest: Record<number, { bw: number; bare: number; note: string }> = {};
    for (const size of [50, 1000]) {
      // Enough pre-generated events that neither side runs dry within the measured seconds.
      const count = Math.ceil((size === 50 ? 150_000 : 250_000) / size);
      const bareRun = await drive(makeBatches(size, count), INGEST_SECONDS, bareInsert(pool, projectId));
      const bwRun = await drive(makeBatches(size, count), INGEST_SECONDS, breakwaterIngest(apiKey));
      ingest[size] = {
        bw: bwRun.eventsPerSecond,
        bare: bareRun.eventsPerSecond,
        note: `${bwRun.events} vs ${bareRun.events} events in ${fmt(bwRun.seconds)} s / ${fmt(bareRun.seconds)} s`,
      };
    }
    await pool.end();

    const p99Ratio = openBw.p99 / openBare.p99;
    const tputRatio = closedBw.rps / closedBare.rps;
    log("");
    log("                                      Breakwater        bare        ratio   target");
    log(
      `check open loop p50 (ms)            ${fmt(openBw.p50, 2).padStart(10)}  ${fmt(openBare.p50, 2).padStart(10)}   ${fmt(openBw.p50 / openBare.p50, 2).padStart(6)}`,
    );
    log(
      `check open loop p99 (ms)            ${fmt(openBw.p99, 2).padStart(10)}  ${fmt(openBare.p99, 2).padStart(10)}   ${fmt(p99Ratio, 2).padStart(6)}   ≤ 1.50  ${verdict(p99Ratio <= 1.5)}`,
    );
    log(
      `check closed loop (req/s)           ${fmt(closedBw.rps, 0).padStart(10)}  ${fmt(closedBare.rps, 0).padStart(10)}   ${fmt(tputRatio, 2).padStart(6)}   ≥ 0.50  ${verdict(tputRatio >= 0.5)}`,
    );
    for (const size of [50, 1000]) {
      const r = ingest[size]!;
      const ratio = r.bw / r.bare;
      log(
        `ingest batch ${String(size).padEnd(4)} (events/s)        ${fmt(r.bw, 0).padStart(10)}  ${fmt(r.bare, 0).padStart(10)}   ${fmt(ratio, 2).padStart(6)}   ≥ 0.50  ${verdict(ratio >= 0.5)}  (${r.note})`,
      );
    }
    log("");
    log(
      `errors: open loop ${openBw.errors}/${openBw.sent} (bare ${openBare.errors}), closed loop non-2xx ${closedBw.non2xx} (bare ${closedBare.non2xx})`,
    );
  } finally {
    stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
