/**
 * The load generator: its own process (forked by run.ts over IPC), so the servers under test
 * never share an event loop with the client. The same code drives Breakwater and the bare
 * reference. Jobs arrive as IPC messages and each answers with one result message.
 */
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import pg from "pg";
import { EventStream, REFERENCE_EVENTS_TABLE, type WireEvent } from "./workload";

// autocannon ships no types: the slice used here, typed locally.
interface AutocannonResult {
  "2xx": number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  latency: { p99: number };
}
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body: string;
    setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
  }[];
}) => Promise<AutocannonResult>;

export type Job =
  | {
      op: "open";
      port: number;
      path: string;
      headers: Record<string, string>;
      bodies: string[];
      rate: number;
      seconds: number;
      /** Replaced in each body by the send time (ISO 8601): reports that move forward in time. */
      stamp?: string;
    }
  | {
      op: "closed";
      port: number;
      path: string;
      headers: Record<string, string>;
      bodies: string[];
      connections: number;
      seconds: number;
      /** As for "open"; the bodies are then dealt out across connections in order, not per connection. */
      stamp?: string;
    }
  | { op: "ingest-http"; port: number; apiKey: string; size: number; concurrency: number; seconds: number }
  | {
      op: "ingest-sql";
      /** The reference's own database (`<bench database>_ref`), not Breakwater's. */
      databaseUrl: string;
      projectId: string;
      size: number;
      concurrency: number;
      seconds: number;
    }
  | {
      /** Unauthenticated load: requests without a key and with made-up keys, alternately. */
      op: "flood";
      port: number;
      path: string;
      bodies: string[];
      rate: number;
      seconds: number;
    }
  | {
      /**
       * Open loop that keeps every request's fate (answered, refused, reset), and sends `signal` to
       * `pid` after `signalAtSeconds` (drain and rolling-restart runs): the counts come split at it.
       */
      op: "outcomes";
      port: number;
      path: string;
      headers: Record<string, string>;
      bodies: string[];
      rate: number;
      seconds: number;
      signal?: { pid: number; name: NodeJS.Signals; atSeconds: number };
    }
  | { op: "exit" };

/** What became of requests: answered (by status), refused (ECONNREFUSED), reset, timed out. */
export interface Fates {
  sent: number;
  ok: number;
  statuses: Record<string, number>;
  refused: number;
  /** Connection reset / closed under the request (ECONNRESET, EPIPE, "socket hang up"). */
  reset: number;
  timeout: number;
  other: Record<string, number>;
  /** Answers that carried Connection: close. */
  connectionClose: number;
}

export interface OutcomesResult {
  /** Date.now() when the signal was sent (null without one). */
  signalledAt: number | null;
  /** Requests that had their connection (kept-alive, or a new one connecting) before the signal, and the rest. */
  before: Fates;
  after: Fates;
  elapsedSeconds: number;
  sendLagP99: number;
}

export interface FloodResult {
  sent: number;
  statuses: Record<string, number>;
}

export interface OpenResult {
  /** Milliseconds from each request's scheduled send time to its complete response. */
  latencies: number[];
  sent: number;
  ok: number;
  statuses: Record<string, number>;
  /** How late the generator itself issued requests (p99, ms): large values mean a saturated client. */
  sendLagP99: number;
  elapsedSeconds: number;
}

export interface ClosedResult {
  requests2xx: number;
  non2xx: number;
  errors: number;
  elapsedSeconds: number;
  p99: number;
}

export interface IngestRunResult {
  events: number;
  /** Events the server answered as rejected or duplicate (a realistic workload has none). */
  refused: number;
  batches: number;
  failures: number;
  elapsedSeconds: number;
  batchP50: number;
  batchP99: number;
}

// Enough sockets that a server stall never throttles the offered load: requests that find every
// socket busy open another, exactly as independent SDK processes would.
const agents = new Map<number, Agent>();
function agentFor(port: number): Agent {
  let a = agents.get(port);
  if (!a) {
    a = new Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 512, scheduling: "lifo" });
    agents.set(port, a);
  }
  return a;
}

function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent: agentFor(port),
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on("error", () => resolve({ status: -1, text: "" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: -1, text: "" }));
    req.end(body);
  });
}

const quantile = (sorted: ArrayLike<number>, q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Open loop: request i is due at start + i/rate whatever happened before, and its latency counts
 * from that due time, so a stalled server shows up as queueing delay instead of a slower client.
 */
async function openLoop(job: Extract<Job, { op: "open" }>): Promise<OpenResult> {
  const total = Math.round(job.rate * job.seconds);
  const interval = 1000 / job.rate;
  const latencies = new Array<number>(total);
  const lag = new Float64Array(total);
  const statuses: Record<string, number> = {};
  let done = 0;
  let ok = 0;
  const start = performance.now() + 5;
  let next = 0;
  return new Promise((resolve) => {
    const finish = (i: number, due: number, status: number) => {
      latencies[i] = performance.now() - due;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) ok++;
      if (++done === total) {
        resolve({
          latencies,
          sent: total,
          ok,
          statuses,
          sendLagP99: quantile(lag.sort(), 0.99),
          elapsedSeconds: (performance.now() - start) / 1000,
        });
      }
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const i = next++;
        const due = start + i * interval;
        lag[i] = now - due;
        const body = job.bodies[i % job.bodies.length]!;
        post(
          job.port,
          job.path,
          job.headers,
          job.stamp ? body.replace(job.stamp, new Date().toISOString()) : body,
        ).then((r) => finish(i, due, r.status));
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now() - 0.5));
    };
    setTimeout(tick, 5);
  });
}

const emptyFates = (): Fates => ({
  sent: 0,
  ok: 0,
  statuses: {},
  refused: 0,
  reset: 0,
  timeout: 0,
  other: {},
  connectionClose: 0,
});

/** One POST whose fate is kept: its status and Connection header, or its error code. */
function postFate(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; close: boolean; error?: string; onSocketAt: number }> {
  return new Promise((resolve) => {
    // When the request got its connection (a kept-alive one, or a new one whose connect starts
    // now): what "sent before the signal" means. A request still queued for a connection in the
    // agent when the generator falls behind has not been sent.
    let onSocketAt = Number.POSITIVE_INFINITY;
    const req = request(
      {
        agent: agentFor(port),
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, close: res.headers.connection === "close", onSocketAt }),
        );
        res.on("error", (err: NodeJS.ErrnoException) =>
          resolve({ status: 0, close: false, error: err.code ?? err.message, onSocketAt }),
        );
      },
    );
    req.once("socket", () => {
      onSocketAt = performance.now();
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (err: NodeJS.ErrnoException) =>
      resolve({ status: 0, close: false, error: err.code ?? err.message, onSocketAt }),
    );
    req.end(body);
  });
}

async function outcomes(job: Extract<Job, { op: "outcomes" }>): Promise<OutcomesResult> {
  const total = Math.round(job.rate * job.seconds);
  const interval = 1000 / job.rate;
  const lag = new Float64Array(total);
  const before = emptyFates();
  const after = emptyFates();
  let signalledAt: number | null = null;
  let signalledPerf = Number.POSITIVE_INFINITY;
  const start = performance.now() + 5;
  if (job.signal) {
    const { pid, name, atSeconds } = job.signal;
    setTimeout(
      () => {
        signalledPerf = performance.now();
        signalledAt = Date.now();
        process.kill(pid, name);
      },
      Math.max(0, start + atSeconds * 1000 - performance.now()),
    );
  }
  let done = 0;
  let next = 0;
  return new Promise((resolve) => {
    const finish = (r: { status: number; close: boolean; error?: string; onSocketAt: number }) => {
      const f = r.onSocketAt < signalledPerf ? before : after;
      f.sent++;
      if (r.status) {
        f.statuses[r.status] = (f.statuses[r.status] ?? 0) + 1;
        if (r.status >= 200 && r.status < 300) f.ok++;
        if (r.close) f.connectionClose++;
      } else if (r.error === "ECONNREFUSED") f.refused++;
      else if (r.error === "ECONNRESET" || r.error === "EPIPE" || r.error === "socket hang up") f.reset++;
      else if (r.error === "TIMEOUT") f.timeout++;
      else f.other[r.error ?? "?"] = (f.other[r.error ?? "?"] ?? 0) + 1;
      if (++done === total)
        resolve({
          signalledAt,
          before,
          after,
          elapsedSeconds: (performance.now() - start) / 1000,
          sendLagP99: quantile(lag.sort(), 0.99),
        });
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const i = next++;
        lag[i] = now - (start + i * interval);
        postFate(job.port, job.path, job.headers, job.bodies[i % job.bodies.length]!).then(finish);
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now() - 0.5));
    };
    setTimeout(tick, 5);
  });
}

/** Keyless and made-up-key requests at `rate` (open loop, half each); a fresh key per request. */
async function flood(job: Extract<Job, { op: "flood" }>): Promise<FloodResult> {
  const total = Math.round(job.rate * job.seconds);
  const interval = 1000 / job.rate;
  const statuses: Record<string, number> = {};
  const salt = Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, "0");
  let done = 0;
  const start = performance.now() + 5;
  let next = 0;
  const keyless = { "content-type": "application/json" };
  return new Promise((resolve) => {
    const finish = (status: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (++done === total) resolve({ sent: total, statuses });
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const i = next++;
        const headers =
          i % 2 === 0
            ? keyless
            : {
                "content-type": "application/json",
                authorization: `Bearer sk_proj_${salt}${i.toString(16).padStart(56, "0")}`,
              };
        post(job.port, job.path, headers, job.bodies[i % job.bodies.length]!).then((r) => finish(r.status));
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now() - 0.5));
    };
    setTimeout(tick, 5);
  });
}

/** Closed loop at fixed concurrency (autocannon): the server's peak request rate. */
async function closedLoop(job: Extract<Job, { op: "closed" }>): Promise<ClosedResult> {
  const started = performance.now();
  const { stamp, bodies } = job;
  let dealt = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${job.port}`,
    connections: job.connections,
    duration: job.seconds,
    requests: stamp
      ? [
          {
            method: "POST",
            path: job.path,
            headers: job.headers,
            body: bodies[0]!,
            // One sequence for all connections (autocannon's own runs one per connection, so 32
            // connections would report the same instance at once), stamped at send time.
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              body: bodies[dealt++ % bodies.length]!.replace(stamp, new Date().toISOString()),
            }),
          },
        ]
      : bodies.map((body) => ({ method: "POST", path: job.path, headers: job.headers, body })),
  });
  return {
    requests2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    elapsedSeconds: Math.max(result.duration, (performance.now() - started) / 1000 - 0.05),
    p99: result.latency.p99,
  };
}

/** `concurrency` SDK instances each sending their next batch as soon as the last one is durable. */
async function drive(
  concurrency: number,
  seconds: number,
  size: number,
  send: (batch: WireEvent[]) => Promise<number | null>,
): Promise<IngestRunResult> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const batchMs: number[] = [];
  let events = 0;
  let refused = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const stream = new EventStream();
      while (performance.now() < deadline) {
        const batch = stream.batch(size);
        const t0 = performance.now();
        const stored = await send(batch);
        batchMs.push(performance.now() - t0);
        if (stored === null) failures++;
        else {
          events += stored;
          refused += batch.length - stored;
        }
      }
    }),
  );
  batchMs.sort((a, b) => a - b);
  return {
    events,
    refused,
    batches: batchMs.length,
    failures,
    elapsedSeconds: (performance.now() - started) / 1000,
    batchP50: quantile(batchMs, 0.5),
    batchP99: quantile(batchMs, 0.99),
  };
}

function ingestHttp(job: Extract<Job, { op: "ingest-http" }>): Promise<IngestRunResult> {
  const headers = { authorization: `Bearer ${job.apiKey}`, "content-type": "application/json" };
  return drive(job.concurrency, job.seconds, job.size, async (batch) => {
    const r = await post(job.port, "/api/v1/metadata/ingest", headers, JSON.stringify(batch));
    if (r.status !== 202) return null;
    // Only what the server reports as ingested counts: duplicates or rejections would not be durable events.
    return (JSON.parse(r.text) as { ingested: number }).ingested;
  });
}

// The columns Breakwater's ingest writes, in one multi-row INSERT … ON CONFLICT DO NOTHING per batch.
const COLUMNS = [
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
  "media_usage",
  "latency_ms",
  "is_model_fallback",
  "is_provider_fallback",
  "requested_provider",
  "requested_model",
  "failover_reason",
  "failover_error_class",
  "possibly_succeeded",
  "service_tier",
  "agent_run_id",
  "parent_agent_run_id",
  "agent_run_name",
  "provider_region",
  "tags",
  "lease_id",
  "deny_source",
  "deny_reason",
  "denied_by_period",
  "estimated_output_bound",
  "velocity_flags",
  "receipt_aggregate_count",
  "receipt_pricing_input_tokens",
  "cost_usd",
  "avoided_cost_usd",
  "priced",
] as const;

function rowValues(projectId: string, e: WireEvent): unknown[] {
  const v = (k: string) => (e[k] === undefined ? null : e[k]);
  const json = (k: string) => (e[k] == null ? null : JSON.stringify(e[k]));
  const denied = e.status === "budget_denied";
  return [
    projectId,
    e.call_id,
    v("attempt_index"),
    e.timestamp,
    e.sdk_instance_id,
    v("model"),
    v("provider"),
    v("modality"),
    v("status"),
    v("input_tokens"),
    v("output_tokens"),
    json("token_details"),
    json("media_usage"),
    Math.round(e.latency_ms as number),
    v("is_model_fallback"),
    v("is_provider_fallback"),
    v("requested_provider"),
    v("requested_model"),
    v("failover_reason"),
    v("failover_error_class"),
    v("possibly_succeeded"),
    v("service_tier"),
    e.agent_run_id ?? `_auto-${e.sdk_instance_id}-${e.timestamp.slice(0, 10)}`,
    v("parent_agent_run_id"),
    v("agent_run_name"),
    v("provider_region"),
    json("tags"),
    v("lease_id"),
    v("deny_source"),
    v("deny_reason"),
    v("denied_by_period"),
    v("estimated_output_bound"),
    Array.isArray(e.velocity_flags) ? `{${(e.velocity_flags as string[]).join(",")}}` : null,
    v("receipt_aggregate_count"),
    v("receipt_pricing_input_tokens"),
    denied ? null : "0.0123450000",
    denied ? "0.0375000000" : null,
    true,
  ];
}

async function ingestSql(job: Extract<Job, { op: "ingest-sql" }>): Promise<IngestRunResult> {
  const pool = new pg.Pool({ connectionString: job.databaseUrl, max: job.concurrency });
  try {
    return await drive(job.concurrency, job.seconds, job.size, async (batch) => {
      // Only the columns this batch fills (as Breakwater's insert does); the rest take defaults/NULL.
      const rows = batch.map((e) => rowValues(job.projectId, e));
      const used = COLUMNS.map((_, i) => i).filter((i) => rows.some((r) => r[i] !== null));
      const params: unknown[] = [];
      const tuples = rows.map((r) => {
        const base = params.length;
        // velocity_flags is NOT NULL (default '{}'): an event without flags gets the empty array.
        for (const i of used) params.push(r[i] ?? (COLUMNS[i] === "velocity_flags" ? "{}" : null));
        return `(${used.map((_, k) => `$${base + k + 1}`).join(",")})`;
      });
      // Deduplicating like the product (its insert must skip replays on either unique key), without
      // a conflict target, so it holds for any unique key the table has (partitioned or not).
      const res = await pool.query(
        `INSERT INTO ${REFERENCE_EVENTS_TABLE} (${used.map((i) => COLUMNS[i]).join(",")}) VALUES ${tuples.join(",")} ON CONFLICT DO NOTHING`,
        params,
      );
      return res.rowCount ?? 0;
    });
  } finally {
    await pool.end();
  }
}

async function run(job: Job): Promise<unknown> {
  switch (job.op) {
    case "open":
      return openLoop(job);
    case "closed":
      return closedLoop(job);
    case "ingest-http":
      return ingestHttp(job);
    case "ingest-sql":
      return ingestSql(job);
    case "flood":
      return flood(job);
    case "outcomes":
      return outcomes(job);
    case "exit":
      for (const a of agents.values()) a.destroy();
      process.exit(0);
  }
}

process.on("message", (job: Job) => {
  run(job).then(
    (result) => process.send?.({ ok: true, result }),
    (err: unknown) => process.send?.({ ok: false, error: String((err as Error)?.stack ?? err) }),
  );
});
// The parent going away ends the generator too: it must never outlive the run.
process.on("disconnect", () => process.exit(0));
