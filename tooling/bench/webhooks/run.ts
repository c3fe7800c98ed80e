/**
 * npm run bench:webhooks — breaker report → webhook receiver latency and delivery throughput of the
 * built-in backend, end to end: recordBreakerReport (the SDK handler's core call) commits the
 * transition, event and outbox row and enqueues; a real worker process (apps/worker) delivers
 * signed requests to a local receiver that verifies each one with svix's Webhook.verify.
 *
 * Postgres: DATABASE_URL (must be migrated). Redis: a private redis-server on a free port of
 * 3340–3399, so the run never touches a shared Redis. Options: --events N (latency phase, default 400),
 * --rate R (event-firing reports/s in the latency phase, default 20 — a fleet-wide breaker storm), --burst N (throughput phase, default
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
import { freePort, startPrivateRedis, startWebhookReceiver } from "@breakwater/queue/testing";
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
const RATE = opt("rate", 20);
const BURST = opt("burst", 2000);
const TRICKLE = opt("trickle", 10);
const KEEP = args.includes("--keep");

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const port = env.WORKER_HEALTH_PORT;
  // --profile writes a V8 CPU profile of the worker to tooling/bench/webhooks/results/.
  const profile = args.includes("--profile")
    ? ["--cpu-prof", `--cpu-prof-dir=${path.join(here, "results")}`]
    : [];
  const proc = spawn(process.execPath, [...profile, "--import", "tsx", "src/main.ts"], {
    cwd: path.join(root, "apps/worker"),
    env: { ...processEnv(), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then(async (r) => r.status === 200 && ((await r.json()) as { pid: number }).pid === proc.pid)
      .catch(() => false);
    if (ok) return proc;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error("the worker did not become healthy");
    await sleep(100);
  }
}

async function main() {
  const base = getConfig();
  const redis = await startPrivateRedis();
  const workerPort = await freePort();
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
  // Whatever ends this process (Ctrl-C, a closed pipe), the worker and redis-server it started go too.
  process.on("exit", () => {
    if (worker && worker.exitCode === null) worker.kill("SIGKILL");
    redis.killNow();
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => process.exit(130));
  process.stdout.on("error", () => process.exit(1));

  const sentAt = new Map<string, number>();
  const latencies: Record<string, number[]> = { steady: [], burst: [], trickle: [] };
  const loadBefore = (await import("node:os")).loadavg()[0] ?? 0;
  let phase: keyof typeof latencies = "steady";
  let secret = "";
  let failedVerify = 0;
  const receivedIds = new Set<string>();
  let duplicates = 0;
  let lastReceipt = 0;
  const receiver = await startWebhookReceiver({
    port: 0,
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
    // A run that was killed before its cleanup left its organization behind; remove those first.
    await db.organization.deleteMany({ where: { name: { startsWith: "Webhook bench " } } });
    const org = await createOrganization(sys, {
      name: `Webhook bench ${new Date().toISOString()}`,
      planSlug: "business",
    });
    orgId = org.id;
    const project = await createProject(sys, { organizationId: org.id, name: "bench" });
    const ep = await createWebhookEndpoint(sys, { organizationId: org.id, url: receiver.url });
    secret = ep.secret;
    const workerEnv = {
      DATABASE_URL: config.DATABASE_URL,
      REDIS_URL: config.REDIS_URL,
      QUEUE_PREFIX: config.QUEUE_PREFIX,
      WORKER_HEALTH_PORT: String(workerPort),
      LOG_LEVEL: "warn",
      // The receiver listens on loopback, which the sender refuses by default.
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    };
    worker = await spawnWorker(workerEnv);

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
      pending.push(
        fire(`steady-${i % 50}`).then((r) => {
          reportMs.push(r.reportMs);
          if (args.includes("--verbose") && r.reportMs > 200)
            console.log(`slow report at +${Math.round(due - start1)} ms: ${r.reportMs} ms`);
        }),
      );
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

    // Phase 3: throughput. With the worker stopped, BURST reports are handed in as fast as 32
    // concurrent callers can (their jobs wait in Redis); then the worker starts on the full backlog
    // and deliveries/s is measured from its first delivery to its last.
    phase = "burst";
    const stopped = new Promise((r) => worker?.once("exit", r));
    worker.kill("SIGTERM");
    await stopped;
    const burstStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        while (next < BURST) {
          next++;
          await fire(`burst-${w}`);
        }
      }),
    );
    const ingestSeconds = (Date.now() - burstStart) / 1000;
    let firstBurstReceipt = 0;
    const before = receivedIds.size;
    const watchFirst = setInterval(() => {
      if (!firstBurstReceipt && receivedIds.size > before) firstBurstReceipt = Date.now();
    }, 1);
    worker = await spawnWorker(workerEnv);
    expected += BURST;
    await waitDelivered(expected, 180_000);
    clearInterval(watchFirst);
    const burstSeconds = (lastReceipt - firstBurstReceipt) / 1000;

    const result = {
      at: new Date().toISOString(),
      machine: {
        cpus: (await import("node:os")).cpus().length,
        node: process.version,
        loadAverage1m: loadBefore,
      },
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
      trickle: {
        events: TRICKLE,
        p50: pct(latencies.trickle ?? [], 50),
        max: Math.max(...(latencies.trickle ?? [])),
      },
      burst: {
        events: BURST,
        reportsPerSecond: BURST / ingestSeconds,
        deliveriesPerSecond: BURST / burstSeconds,
        deliverySeconds: burstSeconds,
      },
      delivered: receivedIds.size,
      duplicates,
      failedVerify,
    };

    const line = "─".repeat(72);
    console.log(`\n${line}\nWebhook delivery benchmark (built-in backend, worker process, local receiver)`);
    console.log(`${result.machine.cpus} CPUs, load average ${loadBefore.toFixed(1)} at start\n${line}`);
    console.log(
      `steady   ${EVENTS} events at ${RATE}/s: report → receiver p50 ${fmt(result.steady.p50)}  p95 ${fmt(result.steady.p95)}  p99 ${fmt(result.steady.p99)}  max ${fmt(result.steady.max)}`,
    );
    console.log(
      `         of which recordBreakerReport (transaction + enqueue): p50 ${fmt(result.steady.reportP50)}  p95 ${fmt(result.steady.reportP95)}`,
    );
    console.log(
      `trickle  ${TRICKLE} events, idle worker between them: p50 ${fmt(result.trickle.p50)}  max ${fmt(result.trickle.max)}`,
    );
    console.log(
      `ingest   ${BURST} event-firing reports from 32 callers: ${result.burst.reportsPerSecond.toFixed(0)} reports/s (transaction + enqueue each)`,
    );
    console.log(
      `deliver  backlog of ${BURST}: ${result.burst.deliveriesPerSecond.toFixed(0)} deliveries/s (${burstSeconds.toFixed(1)} s, concurrency ${config.WEBHOOK_CONCURRENCY})`,
    );
    console.log(
      `checks   ${result.delivered} delivered, ${duplicates} duplicate webhook-ids, ${failedVerify} failed signature checks`,
    );
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
