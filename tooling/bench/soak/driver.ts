/**
 * The soak's load driver: its own process (forked by run.ts over IPC), so the servers never share
 * an event loop with the client and the orchestrator's sampling never delays a send. Open loop: each
 * stream has a fixed rate and every request a scheduled send time; latency runs from that time to
 * the complete answer, so a stalled server shows as latency instead of as fewer requests.
 *
 * Streams (rates per second from the job):
 * - checks: the wire bench's check mix; every allowed check with a reservation is confirmed 200 ms
 *   later (the "call"), and the confirmed call's metadata event is queued for ingest;
 * - ingest: every 250 ms, the queued events in batches of up to 50 (as SDKs batch them);
 * - heartbeats: breaker reports of unchanged state, each (instance, provider) once a minute;
 * - leases: grant, a renewal every 2 s (three), surrender;
 * - pages: signed-in GETs of dashboard pages, in turn.
 * One message per minute window (by scheduled time) goes to the parent once its last request has
 * answered or timed out; then `done`.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { checkBodies } from "../wire/workload";
import { type Endpoint, type EndpointMinute, LogHistogram, type MinuteReport } from "./report";

export interface DriverJob {
  sdkPort: number;
  dashboardPort: number;
  /** One entry per project the load spreads over. */
  projects: { id: string; apiKey: string }[];
  /** Cookie header of a signed-in dashboard session. */
  cookie: string;
  pages: string[];
  rates: { checks: number; heartbeats: number; leases: number; pages: number };
  /** Instances × providers already reported once (their first report is the transactional path). */
  heartbeatFleet: { instances: string[]; providers: string[] };
  warmupSeconds: number;
  minutes: number;
}

export type DriverMessage =
  | { type: "warm" }
  | { type: "minute"; report: MinuteReport }
  | { type: "done" }
  | { type: "error"; error: string };

const TIMEOUT_MS = 10_000;
const agents = new Map<number, Agent>();
function agentFor(port: number): Agent {
  let a = agents.get(port);
  if (!a) {
    a = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256, scheduling: "lifo" });
    agents.set(port, a);
  }
  return a;
}

interface Answer {
  /** 0: no HTTP answer (reset, refused, timed out). */
  status: number;
  text: string;
}

function send(
  port: number,
  method: "GET" | "POST",
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent: agentFor(port),
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", () => resolve({ status: 0, text: "" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, text: "" }));
    req.end(body);
  });
}

function parse<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Minute windows by scheduled time; a window is reported once nothing scheduled in it is pending. */
class Recorder {
  private readonly windows = new Map<
    number,
    { endpoints: Map<Endpoint, { h: LogHistogram; statuses: Record<string, number> }>; lag: LogHistogram }
  >();
  private readonly pending = new Map<number, number>();
  private reported = -1;
  measuring = false;
  startedAt = 0;

  constructor(
    private readonly minutes: number,
    private readonly emit: (m: MinuteReport) => void,
  ) {}

  /** The window a request scheduled at `at` belongs to, or -1 outside the measured run. */
  minuteOf(at: number): number {
    if (!this.measuring || at < this.startedAt) return -1;
    const m = Math.floor((at - this.startedAt) / 60_000);
    return m < this.minutes ? m : -1;
  }

  private window(m: number) {
    let w = this.windows.get(m);
    if (!w) {
      w = { endpoints: new Map(), lag: new LogHistogram() };
      this.windows.set(m, w);
    }
    return w;
  }

  begin(m: number, lagMs: number): void {
    if (m < 0) return;
    this.pending.set(m, (this.pending.get(m) ?? 0) + 1);
    this.window(m).lag.record(Math.max(0, lagMs));
  }

  end(m: number, endpoint: Endpoint, ms: number, status: number): void {
    if (m < 0) return;
    const w = this.window(m);
    let e = w.endpoints.get(endpoint);
    if (!e) {
      e = { h: new LogHistogram(), statuses: {} };
      w.endpoints.set(endpoint, e);
    }
    e.h.record(ms);
    const cls = status === 0 ? "net" : `${Math.floor(status / 100)}xx`;
    e.statuses[cls] = (e.statuses[cls] ?? 0) + 1;
    this.pending.set(m, (this.pending.get(m) ?? 1) - 1);
  }

  /** Reports every finished window in order; with `all`, every window up to the run's end. */
  flush(now: number, all = false): void {
    if (!this.measuring) return;
    for (let m = this.reported + 1; m < this.minutes; m++) {
      // A second of grace: a request scheduled just before the window's end may not have begun yet.
      const over = now >= this.startedAt + (m + 1) * 60_000 + (all ? 0 : 1_000);
      if (!over || (!all && (this.pending.get(m) ?? 0) > 0)) return;
      const w = this.window(m);
      const endpoints: Record<string, EndpointMinute> = {};
      for (const [name, e] of w.endpoints) endpoints[name] = { latency: e.h.toJSON(), statuses: e.statuses };
      this.emit({ minute: m, endpoints, sendLagP99: w.lag.total ? w.lag.quantile(0.99) : 0 });
      this.windows.delete(m);
      this.reported = m;
    }
  }

  get done(): boolean {
    return this.reported >= this.minutes - 1;
  }
}

/** A stream of requests at `rate` per second, each issued at its scheduled time (ms, performance clock). */
interface Stream {
  rate: number;
  issued: number;
  fire(scheduledAt: number): void;
}

/** Microsecond timestamps strictly increasing per SDK instance, as the SDKs stamp events. */
class InstanceClock {
  private last = 0n;
  next(): string {
    let us = BigInt(Date.now()) * 1000n;
    if (us <= this.last) us = this.last + 1n;
    this.last = us;
    const ms = Number(us / 1000n);
    return `${new Date(ms).toISOString().slice(0, 19)}.${(us % 1_000_000n).toString().padStart(6, "0")}Z`;
  }
}

export async function drive(job: DriverJob, post: (m: DriverMessage) => void): Promise<void> {
  const rec = new Recorder(job.minutes, (report) => post({ type: "minute", report }));
  const checks = checkBodies().map((b) => ({ text: b, json: JSON.parse(b) as Record<string, unknown> }));
  const auth = job.projects.map((p) => ({
    authorization: `Bearer ${p.apiKey}`,
    "content-type": "application/json",
  }));
  const eventInstances = Array.from({ length: 16 }, () => ({ id: randomUUID(), clock: new InstanceClock() }));
  const queued: Record<string, unknown>[][] = job.projects.map(() => []);

  /** Times one request; `scheduledAt` on the performance clock. */
  const timed = async (
    endpoint: Endpoint,
    scheduledAt: number,
    go: () => Promise<Answer>,
  ): Promise<Answer> => {
    const m = rec.minuteOf(performance.timeOrigin + scheduledAt);
    rec.begin(m, performance.now() - scheduledAt);
    const a = await go();
    rec.end(m, endpoint, performance.now() - scheduledAt, a.status);
    return a;
  };
  const postSdk = (p: number, path: string, body: string) => () =>
    send(job.sdkPort, "POST", path, auth[p]!, body);

  let checkN = 0;
  const checkStream: Stream = {
    rate: job.rates.checks,
    issued: 0,
    fire(at) {
      const n = checkN++;
      const p = n % job.projects.length;
      const body = checks[n % checks.length]!;
      void timed("check", at, postSdk(p, "/api/v1/budgets/check", body.text)).then((a) => {
        if (a.status !== 200) return;
        const reservation = parse<{ reservation_id?: string | null }>(a.text)?.reservation_id;
        if (!reservation) return;
        const callAt = performance.now() + 200;
        setTimeout(() => {
          const callId = randomUUID();
          const input = Number(body.json.estimated_input_tokens);
          const output = 50 + (n % 900);
          const confirm = JSON.stringify({
            reservation_id: reservation,
            model: body.json.model,
            provider: body.json.provider,
            is_provider_fallback: false,
            call_id: callId,
            token_details: { input_tokens: input, output_tokens: output },
          });
          void timed("confirm", callAt, postSdk(p, "/api/v1/budgets/confirm", confirm)).then((c) => {
            if (c.status !== 204) return;
            const instance = eventInstances[n % eventInstances.length]!;
            queued[p]!.push({
              model: body.json.model,
              provider: body.json.provider,
              modality: "text",
              input_tokens: input,
              output_tokens: output,
              latency_ms: 200.5,
              status: "success",
              is_model_fallback: false,
              is_provider_fallback: false,
              attempt_index: 0,
              call_id: callId,
              sdk_instance_id: instance.id,
              timestamp: instance.clock.next(),
              ...(body.json.agent_run_id ? { agent_run_id: body.json.agent_run_id } : {}),
              ...(body.json.tags ? { tags: body.json.tags } : {}),
            });
          });
        }, 200);
      });
    },
  };

  const ingestStream: Stream = {
    rate: 4,
    issued: 0,
    fire(at) {
      for (let p = 0; p < queued.length; p++) {
        const q = queued[p]!;
        while (q.length > 0) {
          const batch = q.splice(0, 50);
          void timed("ingest", at, postSdk(p, "/api/v1/metadata/ingest", JSON.stringify(batch)));
        }
      }
    },
  };

  const pairs = job.heartbeatFleet.instances.flatMap((i) =>
    job.heartbeatFleet.providers.map((pr) => [i, pr]),
  );
  let beatN = 0;
  const heartbeatStream: Stream = {
    rate: job.rates.heartbeats,
    issued: 0,
    fire(at) {
      const pair = beatN++ % pairs.length;
      const [instance, provider] = pairs[pair]!;
      // The project the pair's first report went to (run.ts: pair index modulo the projects).
      const p = pair % job.projects.length;
      const body = JSON.stringify({
        provider,
        state: "closed",
        failure_count: 0,
        success_count: 40 + (beatN % 7),
        reported_at: new Date().toISOString(),
        sdk_instance_id: instance,
      });
      void timed(
        "heartbeat",
        at,
        postSdk(p, `/api/v1/projects/${job.projects[p]!.id}/providers/breaker-reports`, body),
      );
    },
  };

  let leaseN = 0;
  const leaseStream: Stream = {
    rate: job.rates.leases,
    issued: 0,
    fire(at) {
      const n = leaseN++;
      const p = n % job.projects.length;
      const holder = `soak-${n}`;
      void (async () => {
        const grant = await timed(
          "lease grant",
          at,
          postSdk(
            p,
            "/api/v1/budgets/lease",
            JSON.stringify({
              agent_run_id: `soak-run-${n % 64}`,
              holder_id: holder,
              model: "gpt-4o",
              provider: "openai",
              fallback_providers: [],
              fallback_models: [],
              fail_open: true,
              estimated_input_tokens: 500,
              run_directive_version: "1",
            }),
          ),
        );
        if (grant.status !== 200) return;
        const leaseId = parse<{ lease_id?: string }>(grant.text)?.lease_id;
        if (!leaseId) return;
        let generation = 1;
        let due = performance.now();
        for (let r = 0; r < 3; r++) {
          due += 2_000;
          await new Promise((res) => setTimeout(res, Math.max(0, due - performance.now())));
          const renew = await timed(
            "lease renew",
            due,
            postSdk(
              p,
              "/api/v1/budgets/lease/renew",
              JSON.stringify({
                lease_id: leaseId,
                holder_id: holder,
                generation,
                spent_tokens: 1200,
                reserved_tokens: 0,
                uncounted_calls: 0,
                uncounted_tokens: 0,
                run_directive_version: "1",
              }),
            ),
          );
          if (renew.status !== 200) return;
          generation = parse<{ generation?: number }>(renew.text)?.generation ?? generation + 1;
        }
        due += 2_000;
        await new Promise((res) => setTimeout(res, Math.max(0, due - performance.now())));
        await timed(
          "lease surrender",
          due,
          postSdk(
            p,
            "/api/v1/budgets/lease/surrender",
            JSON.stringify({ lease_id: leaseId, holder_id: holder, generation, spent_tokens: 300 }),
          ),
        );
      })();
    },
  };

  let pageN = 0;
  const pageStream: Stream = {
    rate: job.rates.pages,
    issued: 0,
    fire(at) {
      const path = job.pages[pageN++ % job.pages.length]!;
      void timed("dashboard page", at, () =>
        send(job.dashboardPort, "GET", path, { cookie: job.cookie, accept: "text/html" }),
      );
    },
  };

  const streams = [checkStream, ingestStream, heartbeatStream, leaseStream, pageStream].filter(
    (s) => s.rate > 0,
  );
  const t0 = performance.now();
  const warmEnd = t0 + job.warmupSeconds * 1000;
  const runEnd = warmEnd + job.minutes * 60_000;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      if (!rec.measuring && now >= warmEnd) {
        rec.measuring = true;
        rec.startedAt = performance.timeOrigin + warmEnd;
        post({ type: "warm" });
      }
      // Request k of a stream is due at t0 + k / rate (the run's end excluded).
      const until = Math.min(now, runEnd - 1e-6);
      for (const s of streams) {
        for (;;) {
          const at = t0 + (s.issued * 1000) / s.rate;
          if (at > until) break;
          s.issued++;
          s.fire(at);
        }
      }
      rec.flush(performance.timeOrigin + now);
      if (now >= runEnd) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  // Answers still in flight (renewals run up to 8 s after their grant; requests time out at 10 s).
  const drainUntil = performance.now() + 12_000 + TIMEOUT_MS;
  while (!rec.done && performance.now() < drainUntil) {
    rec.flush(performance.timeOrigin + performance.now());
    await new Promise((r) => setTimeout(r, 100));
  }
  rec.flush(performance.timeOrigin + performance.now(), true);
  for (const a of agents.values()) a.destroy();
  post({ type: "done" });
}

// Forked by run.ts (which imports only this module's types): one job, then exit.
if (process.send) {
  const reply = (m: DriverMessage) => process.send?.(m);
  process.once("message", (job: DriverJob) => {
    drive(job, reply).then(
      () => process.disconnect?.(),
      (err: unknown) => {
        reply({ type: "error", error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        process.disconnect?.();
      },
    );
  });
}
