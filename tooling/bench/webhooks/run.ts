/**
 * npm run bench:webhooks — breaker report → webhook receiver latency and delivery throughput of the
 * built-in backend, end to end: recordBreakerReport (the SDK handler's core call) commits the
 * transition, event and outbox row and enqueues; a real worker process (apps/worker) delivers
 * signed requests to a local receiver that verifies each one with svix's Webhook.verify.
 *
 * Postgres: DATABASE_URL (must be migrated). Redis: a private redis-server on port 3383, so the
 * run never touches a shared Redis. Options: --events N (latency phase, default 400),
 * --rate R (reports/s in the latency phase, default 50), --burst N (throughput phase, default
 * 2000), --trickle N (idle-worker wake-ups, 1 report/s, default 10), --keep (keep the bench org).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getConfig, parseConfig, processEnv } from "@breakwater/config";
import {
  createOrganization,
  createProject,
  createWebhookEndpoint,
  type Deps,
  recordBreakerReport,
  seedDefaultPlans,
  systemCtx,
} from "@breakwater/core";
import { createDb } from "@breakwater/db";
import { createJobsClient } from "@breakwater/queue";
import { startPrivateRedis, startWebhookReceiver } from "@breakwater/queue/testing";
import { pino } from "pino";
import { Webhook } from "svix";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const EVENTS = opt("events", 400);
const RATE = opt("rate", 50);
const BURST = opt("burst", 2000);
const TRICKLE = opt("trickle", 10);
const KEEP = args.includes("--keep");
const PORTS = { redis: 3383, receiver: 3312, worker: 3322 };

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(root, "apps/worker"),
    env: { ...processEnv(), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${PORTS.worker}/healthz`)
      .then(async (r) => r.status === 200 && ((await r.json()) as { pid: number }).pid === proc.pid)
      .catch(() => false);
    if (ok) return proc;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error("the worker did not become healthy");
    await sleep(100);
  }
}

async function main() {
  const base = getConfig();
  const redis = await startPrivateRedis(PORTS.redis);
  const config = parseConfig({
    ...processEnv(),
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `bench${Date.now().toString(36)}`,
    LOG_LEVEL: "warn",
  });
  const db = createDb(config.DATABASE_URL, { max: 40 });
  const jobs = createJobsClient(config);
  const deps: Deps = { db, config, log: pino({ level: "warn" }), jobs };
  const sys = systemCtx(deps, "bench");
  let worker: ChildProcess | undefined;

  const sentAt = new Map<string, number>();
  const latencies: Record<string, number[]> = { steady: [], burst: [], trickle: [] };
  let phase: keyof typeof latencies = "steady";
  let secret = "";
  let failedVerify = 0;
  const receivedIds = new Set<string>();
  let duplicates = 0;
  let lastReceipt = 0;
  const receiver = await startWebhookReceiver({
    port: PORTS.receiver,
    verify: (body, headers) => new Webhook(secret).verify(body, headers),
    onReceive: (r) => {
      if (!r.verified) failedVerify++;
      if (receivedIds.has(r.webhookId)) duplicates++;
      receivedIds.add(r.webhookId);
      lastReceipt = r.receivedAt;
      const t = sentAt.get(r.webhookId);
      if (t !== undefined) latencies[phase]?.push(r.receivedAt - t);
    },
  });

  let orgId: string | undefined;
  try {
    await seedDefaultPlans(db);
    const org = await createOrganization(sys, { name: `Webhook bench ${new Date().toISOString()}`, planSlug: "business" });
    orgId = org.id;
    const project = await createProject(sys, { organizationId: org.id, name: "bench" });
    const ep = await createWebhookEndpoint(sys, { organizationId: org.id, url: receiver.url });
    secret = ep.secret;
    worker = await spawnWorker({
      DATABASE_URL: config.DATABASE_URL,
      REDIS_URL: config.REDIS_URL,
      QUEUE_PREFIX: config.QUEUE_PREFIX,
      WORKER_HEALTH_PORT: String(PORTS.worker),
      LOG_LEVEL: "warn",
    });

    // Each instance alternates open/closed, so every report fires exactly one event.
    let seq = 0;
    const states = new Map<string, boolean>();
    const t0 = Date.now() - 86_400_000;
    const fire = async (instance: string) => {
      const open = !(states.get(instance) ?? false);
      states.set(instance, open);
      const started = Date.now();
      const r = await recordBreakerReport(deps, {
        projectId: project.id,
        provider: "openai",
        sdkInstanceId: instance,
        state: open ? "open" : "closed",
        failureCount: open ? 5 : 0,
        successCount: open ? 0 : 3,
        reportedAt: new Date(t0 + ++seq),
      });
      for (const id of r.eventIds) sentAt.set(id, started);
      return { reportMs: Date.now() - started, events: r.eventIds.length };
    };
    const waitDelivered = async (n: number, ms: number) => {
      const deadline = Date.now() + ms;
      while (receivedIds.size < n) {
        if (Date.now() > deadline) throw new Error(`only ${receivedIds.size}/${n} delivered`);
        await sleep(10);
      }
    };

    // Warm-up: connections, JIT, Prisma's query plans.
    for (let i = 0; i < 20; i++) await fire(`warm-${i % 4}`);
    await waitDelivered(20, 20_000);
    let expected = 20;

    // Phase 1: open loop at RATE reports/s; latency from the moment the report was handed in.
    phase = "steady";
    const reportMs: number[] = [];
    const interval = 1000 / RATE;
    const start1 = performance.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const due = start1 + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(fire(`steady-${i % 50}`).then((r) => reportMs.push(r.reportMs)));
    }
    await Promise.all(pending);
    expected += EVENTS;
    await waitDelivered(expected, 60_000);

    // Phase 2: idle worker — one report per second, so the worker is blocked waiting each time.
    phase = "trickle";
    for (let i = 0; i < TRICKLE; i++) {
      await sleep(1000);
      await fire(`trickle-${i % 5}`);
    }
    expected += TRICKLE;
    await waitDelivered(expected, 30_000);

    // Phase 3: burst — reports as fast as 64 concurrent callers can hand them in.
    phase = "burst";
    const burstStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async (_, w) => {
        while (next < BURST) {
          next++;
          await fire(`burst-${w}`);
        }
      }),
    );
    const ingestDone = Date.now();
    expected += BURST;
    await waitDelivered(expected, 120_000);
    const burstSeconds = (lastReceipt - burstStart) / 1000;

    const result = {
      at: new Date().toISOString(),
      machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
      steady: {
        events: EVENTS,
        rate: RATE,
        p50: pct(latencies.steady ?? [], 50),
        p95: pct(latencies.steady ?? [], 95),
        p99: pct(latencies.steady ?? [], 99),
        max: Math.max(...(latencies.steady ?? [])),
        reportP50: pct(reportMs, 50),
        reportP95: pct(reportMs, 95),
      },
      trickle: { events: TRICKLE, p50: pct(latencies.trickle ?? [], 50), max: Math.max(...(latencies.trickle ?? [])) },
      burst: {
        events: BURST,
        reportsPerSecond: BURST / ((ingestDone - burstStart) / 1000),
        deliveriesPerSecond: BURST / burstSeconds,
        p50: pct(latencies.burst ?? [], 50),
        p95: pct(latencies.burst ?? [], 95),
      },
      delivered: receivedIds.size,
      duplicates,
      failedVerify,
    };

    const line = "─".repeat(72);
    console.log(`\n${line}\nWebhook delivery benchmark (built-in backend, worker process, local receiver)\n${line}`);
    console.log(`steady   ${EVENTS} events at ${RATE}/s: report → receiver p50 ${fmt(result.steady.p50)}  p95 ${fmt(result.steady.p95)}  p99 ${fmt(result.steady.p99)}  max ${fmt(result.steady.max)}`);
    console.log(`         of which recordBreakerReport (transaction + enqueue): p50 ${fmt(result.steady.reportP50)}  p95 ${fmt(result.steady.reportP95)}`);
    console.log(`trickle  ${TRICKLE} events, idle worker between them: p50 ${fmt(result.trickle.p50)}  max ${fmt(result.trickle.max)}`);
    console.log(`burst    ${BURST} events: ${result.burst.reportsPerSecond.toFixed(0)} reports/s handed in, ${result.burst.deliveriesPerSecond.toFixed(0)} deliveries/s, latency p50 ${fmt(result.burst.p50)} p95 ${fmt(result.burst.p95)} (queueing included)`);
    console.log(`checks   ${result.delivered} delivered, ${duplicates} duplicate webhook-ids, ${failedVerify} failed signature checks`);
    const ok = result.steady.p95 <= 500;
    console.log(`target   p95 ≤ 500 ms: ${ok ? "met" : "MISSED"} (${fmt(result.steady.p95)})\n${line}`);
    mkdirSync(path.join(here, "results"), { recursive: true });
    writeFileSync(path.join(here, "results", "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
    if (!ok || duplicates > 0 || failedVerify > 0) process.exitCode = 1;
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker?.once("exit", r));
      worker.kill("SIGTERM");
      await exited;
    }
    if (orgId && !KEEP) await db.organization.delete({ where: { id: orgId } }).catch(() => {});
    await receiver.close();
    await jobs.close();
    await db.$disconnect();
    await redis.stop();
    void base;
  }
}

main().catch((err: Error) => {
  console.error(`bench:webhooks failed: ${err.message}`);
  process.exit(1);
});
