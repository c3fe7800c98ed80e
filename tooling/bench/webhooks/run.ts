/**
 * npm run bench:webhooks — breaker report → webhook receiver latency and delivery throughput of the
 * built-in backend, end to end: recordBreakerReport (the SDK handler's core call) commits the
 * transition, event and outbox row and enqueues; a real worker process (apps/worker) delivers
 * signed requests to a local receiver that verifies each one with svix's Webhook.verify.
 *
 * Phases: steady (open loop at --rate), trickle (idle worker), ingest (--ingest real reports from
 * 32 callers), then for each backlog of --burst (a comma list: --burst 20000,100000):
 *   - the bare reference: a loop in this process that signs each event the Standard Webhooks way
 *     and POSTs it to a second verifying receiver over keep-alive connections, 32 in flight, no
 *     database — what sending costs, measured right before the backlog on the same machine;
 *   - the backlog: with the worker stopped, N breaker events (opened/closed pairs per instance,
 *     as an outage fires them) are written with their outbox rows and enqueued the way
 *     enqueueWebhookDeliveries does; then the worker starts and deliveries/s is measured from its
 *     first delivery to its last, and compared with the bare loop;
 *   - incident behind the backlog: when a quarter of it is delivered, a provider_incident_opened
 *     is recorded (recordWebhookEvent + enqueueWebhookDeliveries, as the incident evaluator does)
 *     for the same endpoint, and its record → receiver time is reported.
 * Every phase checks: no duplicate webhook-id, no failed signature, and per-instance order (an
 * episode's closed never received before its opened).
 *
 * Postgres: DATABASE_URL (must be migrated), or --database NAME for another database on the same
 * server. Redis: a private redis-server on a free port of 3340–3399, so the run never touches a
 * shared Redis. Options: --events N (latency phase, default 400), --rate R (event-firing
 * reports/s in the latency phase, default 20 — a fleet-wide breaker storm), --trickle N (idle-worker
 * wake-ups, 1 report/s, default 10), --ingest N (real reports from 32 callers, default 1000),
 * --burst N[,N…] (backlogs, default 20000), --bare N (bare-loop events, default 20000),
 * --concurrency N (the worker's WEBHOOK_CONCURRENCY), --keep (keep the bench org), --profile.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getConfig, parseConfig, processEnv } from "@breakwater/config";
import {
  createOrganization,
  createProject,
  createWebhookEndpoint,
  type Deps,
  enqueueWebhookDeliveries,
  newId,
  recordBreakerReport,
  recordWebhookEvent,
  seedDefaultPlans,
  systemCtx,
  WEBHOOK_EVENT_SAMPLES,
  webhookHeaders,
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
const str = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const EVENTS = opt("events", 400);
const RATE = opt("rate", 20);
const BURSTS = (str("burst") ?? "20000").split(",").map(Number);
const TRICKLE = opt("trickle", 10);
const INGEST = opt("ingest", 1000);
const BARE = opt("bare", 20000);
const CONCURRENCY = str("concurrency");
const DATABASE = str("database");
const KEEP = args.includes("--keep");
if (
  BURSTS.some((n) => !Number.isInteger(n) || n < 2) ||
  (DATABASE !== undefined && !/^\w+$/.test(DATABASE))
) {
  console.error("usage: --burst N[,N…] (each ≥ 2), --database NAME (letters, digits, _)");
  process.exit(2);
}

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

/** The bare reference: sign each body the Standard Webhooks way and POST it, 32 in flight, keep-alive. */
async function bareLoop(bodies: { id: string; body: string }[], secret: string) {
  let verifyFailed = 0;
  let got = 0;
  const bare = await startWebhookReceiver({
    port: 0,
    retain: false,
    verify: (body, headers) => new Webhook(secret).verify(body, headers),
    onReceive: (r) => {
      got++;
      if (!r.verified) verifyFailed++;
    },
  });
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 32 });
  const target = new URL(bare.url);
  const send = (id: string, body: string) =>
    new Promise<void>((resolve, reject) => {
      const ts = Math.floor(Date.now() / 1000);
      const headers = webhookHeaders([secret], id, ts, body);
      const req = httpRequest(
        target,
        {
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            ...headers,
          },
        },
        (res) => {
          res.resume();
          res.on("end", () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < bodies.length) {
        const b = bodies[next++]!;
        await send(b.id, b.body);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  await bare.close();
  return { perSecond: bodies.length / seconds, received: got, verifyFailed };
}

async function main() {
  const base = getConfig();
  const redis = await startPrivateRedis();
  const workerPort = await freePort();
  const databaseUrl = new URL(base.DATABASE_URL);
  if (DATABASE) databaseUrl.pathname = `/${DATABASE}`;
  const config = parseConfig({
    ...processEnv(),
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `bench${Date.now().toString(36)}`,
    LOG_LEVEL: "warn",
    ...(CONCURRENCY ? { WEBHOOK_CONCURRENCY: CONCURRENCY } : {}),
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
  const latencies: Record<string, number[]> = { steady: [], trickle: [] };
  const loadBefore = (await import("node:os")).loadavg()[0] ?? 0;
  let phase = "steady";
  let secret = "";
  let failedVerify = 0;
  const receivedIds = new Set<string>();
  const receivedAt = new Map<string, number>();
  let duplicates = 0;
  // The backlog being measured, and how many of it have arrived.
  let phaseIds = new Set<string>();
  let phaseDelivered = 0;
  // Per-instance order: when each episode's opened arrived, and closed messages that came first.
  const openedAt = new Map<string, number>();
  const closedEarly = new Set<string>();
  let outOfOrder = 0;
  const receiver = await startWebhookReceiver({
    port: 0,
    retain: false,
    verify: (body, headers) => new Webhook(secret).verify(body, headers),
    onReceive: (r) => {
      if (!r.verified) failedVerify++;
      if (receivedIds.has(r.webhookId)) duplicates++;
      else if (phaseIds.has(r.webhookId)) phaseDelivered++;
      receivedIds.add(r.webhookId);
      receivedAt.set(r.webhookId, r.receivedAt);
      const t = sentAt.get(r.webhookId);
      if (t !== undefined) latencies[phase]?.push(r.receivedAt - t);
      try {
        const p = JSON.parse(r.body) as { type: string; data: { episode_id?: string } };
        const ep = p.data.episode_id;
        if (ep && p.type === "circuit_breaker_opened") {
          openedAt.set(ep, r.receivedAt);
          if (closedEarly.has(ep)) outOfOrder++;
        } else if (ep && p.type === "circuit_breaker_closed" && !openedAt.has(ep)) closedEarly.add(ep);
      } catch {
        // not JSON: counted by the signature check
      }
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
      WEBHOOK_CONCURRENCY: String(config.WEBHOOK_CONCURRENCY),
      LOG_LEVEL: "warn",
      // The receiver listens on loopback, which the sender refuses by default.
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    };
    worker = await spawnWorker(workerEnv);
    const stopWorker = async () => {
      const stopped = new Promise((r) => worker?.once("exit", r));
      worker?.kill("SIGTERM");
      await stopped;
    };

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
      for (const id of r.eventIds) {
        // An idle worker can deliver before the call returns: then the latency is known already.
        const arrived = receivedAt.get(id);
        if (arrived === undefined) sentAt.set(id, started);
        else latencies[phase]?.push(arrived - started);
      }
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

    // Phase 3: ingest. With the worker stopped, INGEST real reports are handed in as fast as 32
    // concurrent callers can (transaction + enqueue each); then the worker delivers them.
    phase = "ingest";
    await stopWorker();
    const ingestStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        while (next < INGEST) {
          next++;
          await fire(`ingest-${w}`);
        }
      }),
    );
    const ingestSeconds = (Date.now() - ingestStart) / 1000;
    worker = await spawnWorker(workerEnv);
    expected += INGEST;
    await waitDelivered(expected, 180_000);

    // Templates for the backlog's events: real payloads of this project's last opened and closed.
    const template = async (type: string) => {
      const e = await db.webhookEvent.findFirst({
        where: { projectId: project.id, type },
        orderBy: { createdAt: "desc" },
      });
      if (!e) throw new Error(`no ${type} event to copy`);
      return e.payload as { type: string; timestamp: string; data: Record<string, unknown> };
    };
    const openedTemplate = await template("circuit_breaker_opened");
    const closedTemplate = await template("circuit_breaker_closed");

    /** N breaker events as an outage fires them: per instance, opened then closed, episode after episode. */
    const makeBacklog = (n: number, tag: string) => {
      const out: { id: string; type: string; episodeId: string; payload: unknown; at: Date }[] = [];
      const instances = Math.max(1, Math.ceil(n / 2));
      const start = Date.now();
      for (let i = 0; i < n; i++) {
        // Every instance's breaker opens, then every one closes (its closed `instances` behind its opened).
        const inst = i % instances;
        const opened = Math.floor(i / instances) % 2 === 0;
        const episodeId = opened ? newId("ep") : (out[i - instances]?.episodeId ?? newId("ep"));
        const id = newId("evt");
        const t = opened ? openedTemplate : closedTemplate;
        const at = new Date(start + i);
        out.push({
          id,
          type: t.type,
          episodeId,
          at,
          payload: {
            ...t,
            timestamp: at.toISOString(),
            data: { ...t.data, event_id: id, episode_id: episodeId, sdk_instance_id: `${tag}-${inst}` },
          },
        });
      }
      return out;
    };

    const bursts: Record<string, unknown>[] = [];
    for (const BURST of BURSTS) {
      phase = `burst-${BURST}`;
      // The bare reference first, on the same machine at the same moment, with bodies like the backlog's.
      const backlog = makeBacklog(BURST, `b${BURST}`);
      const bareBodies = makeBacklog(Math.min(BARE, BURST), `bare${BURST}`).map((e) => ({
        id: e.id,
        body: JSON.stringify(e.payload),
      }));
      const bare = await bareLoop(bareBodies, secret);

      await stopWorker();
      const writeStart = Date.now();
      for (let i = 0; i < backlog.length; i += 2000) {
        const chunk = backlog.slice(i, i + 2000);
        await db.$executeRawUnsafe(
          `WITH ev AS (
             INSERT INTO webhook_events (id, organization_id, project_id, type, payload, deliverable, is_test, episode_id, created_at)
             SELECT v.id, $2, $3, v.type, v.payload::jsonb, true, false, v.episode_id, v.at
             FROM unnest($1::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[]) AS v(id, type, payload, episode_id, at)
             RETURNING id, created_at
           )
           INSERT INTO webhook_outbox (event_id, created_at, next_attempt_at) SELECT id, created_at, created_at FROM ev`,
          chunk.map((e) => e.id),
          org.id,
          project.id,
          chunk.map((e) => e.type),
          chunk.map((e) => JSON.stringify(e.payload)),
          chunk.map((e) => e.episodeId),
          chunk.map((e) => e.at.toISOString()),
        );
        await enqueueWebhookDeliveries(
          deps,
          chunk.map((e) => ({ id: e.id, type: e.type })),
        );
      }
      const writeSeconds = (Date.now() - writeStart) / 1000;
      const ids = new Set(backlog.map((e) => e.id));
      phaseIds = ids;
      phaseDelivered = 0;
      const deliveredOf = () => phaseDelivered;
      const dupBefore = duplicates;
      const verifyBefore = failedVerify;
      const orderBefore = outOfOrder;
      worker = await spawnWorker(workerEnv);
      // The incident, recorded behind the backlog once a quarter of it has been delivered.
      let incident: { id: string; recordedAt: number; backlogLeft: number } | undefined;
      const deadline = Date.now() + Math.max(180_000, BURST * 5);
      for (;;) {
        const delivered = deliveredOf();
        if (!incident && delivered >= BURST / 4) {
          const id = newId("evt");
          const incidentId = newId("inc");
          const sample = WEBHOOK_EVENT_SAMPLES.provider_incident_opened;
          const recordedAt = Date.now();
          await db.$transaction(async (tx) => {
            await recordWebhookEvent(tx, {
              id,
              organizationId: org.id,
              projectId: project.id,
              episodeId: incidentId,
              payload: {
                ...sample,
                timestamp: new Date(recordedAt).toISOString(),
                data: { ...sample.data, event_id: id, incident_id: incidentId, project_id: project.id },
              },
              deliverable: true,
              now: new Date(recordedAt),
            });
          });
          await enqueueWebhookDeliveries(deps, [id]);
          incident = { id, recordedAt, backlogLeft: BURST - deliveredOf() };
        }
        if (delivered >= BURST && incident && receivedIds.has(incident.id)) break;
        if (Date.now() > deadline) throw new Error(`backlog ${BURST}: only ${delivered} delivered`);
        await sleep(5);
      }
      let first = Number.POSITIVE_INFINITY;
      let last = 0;
      for (const id of ids) {
        const t = receivedAt.get(id) ?? 0;
        if (t < first) first = t;
        if (t > last) last = t;
      }
      const seconds = (last - first) / 1000;
      const rate = BURST / seconds;
      const incidentMs = (receivedAt.get(incident!.id) ?? Number.NaN) - incident!.recordedAt;
      expected += BURST + 1;
      bursts.push({
        backlog: BURST,
        writeSeconds,
        deliveriesPerSecond: rate,
        deliverySeconds: seconds,
        bare: bare.perSecond,
        bareVerifyFailed: bare.verifyFailed,
        ratio: rate / bare.perSecond,
        incidentMs,
        incidentBacklogLeft: incident!.backlogLeft,
        duplicates: duplicates - dupBefore,
        failedVerify: failedVerify - verifyBefore,
        outOfOrder: outOfOrder - orderBefore,
      });
    }
    await waitDelivered(expected, 30_000);

    const result = {
      at: new Date().toISOString(),
      machine: {
        cpus: (await import("node:os")).cpus().length,
        node: process.version,
        loadAverage1m: loadBefore,
      },
      concurrency: config.WEBHOOK_CONCURRENCY,
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
      ingest: { events: INGEST, reportsPerSecond: INGEST / ingestSeconds },
      bursts,
      delivered: receivedIds.size,
      duplicates,
      failedVerify,
      outOfOrder,
    };

    const line = "─".repeat(72);
    console.log(`\n${line}\nWebhook delivery benchmark (built-in backend, worker process, local receiver)`);
    console.log(
      `${result.machine.cpus} CPUs, load average ${loadBefore.toFixed(1)} at start, WEBHOOK_CONCURRENCY ${config.WEBHOOK_CONCURRENCY}\n${line}`,
    );
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
      `ingest   ${INGEST} event-firing reports from 32 callers: ${result.ingest.reportsPerSecond.toFixed(0)} reports/s (transaction + enqueue each)`,
    );
    for (const b of bursts as {
      backlog: number;
      deliveriesPerSecond: number;
      deliverySeconds: number;
      bare: number;
      ratio: number;
      incidentMs: number;
      incidentBacklogLeft: number;
      duplicates: number;
      failedVerify: number;
      outOfOrder: number;
    }[]) {
      console.log(
        `backlog  ${b.backlog}: ${b.deliveriesPerSecond.toFixed(0)} deliveries/s (${b.deliverySeconds.toFixed(1)} s); bare sign-and-POST ${b.bare.toFixed(0)}/s → ratio ${b.ratio.toFixed(2)}`,
      );
      console.log(
        `         incident recorded with ${b.incidentBacklogLeft} ahead of it: at the receiver in ${b.incidentMs} ms; ${b.duplicates} duplicates, ${b.failedVerify} bad signatures, ${b.outOfOrder} closed-before-opened`,
      );
    }
    console.log(
      `checks   ${result.delivered} delivered, ${duplicates} duplicate webhook-ids, ${failedVerify} failed signature checks, ${outOfOrder} out of order`,
    );
    const ok = result.steady.p95 <= 500;
    console.log(`target   p95 ≤ 500 ms: ${ok ? "met" : "MISSED"} (${fmt(result.steady.p95)})\n${line}`);
    mkdirSync(path.join(here, "results"), { recursive: true });
    writeFileSync(path.join(here, "results", "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
    if (!ok || duplicates > 0 || failedVerify > 0 || outOfOrder > 0) process.exitCode = 1;
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
  }
}

main().catch((err: Error) => {
  console.error(`bench:webhooks failed: ${err.message}`);
  process.exit(1);
});
