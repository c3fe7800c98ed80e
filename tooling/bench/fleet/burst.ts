/**
 * `npm run bench:fleet -- --burst N`: an outage as a fleet reports it. N instances of one project
 * report their `openai` breaker closed (first reports, 32 senders), then open it within 10 s —
 * each instance at its own moment, paced evenly, open loop — and close it again after `--gap`
 * seconds (default 60), paced the same way. Every request
 * goes to a lean SDK API process of its own (`packages/wire/src/main.ts`), so the sender does not
 * share its event loop. Measured: each wave's answer latency from the report's scheduled send
 * time (p50/p99, target p99 ≤ 500 ms), every transition and `circuit_breaker_opened`/`closed`
 * event exactly once per instance, exactly one provider incident opened and resolved, and the
 * delay from the incident's opening to its live push (what an open fleet page reacts to; ≤ 2 s).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import path from "node:path";
import { type Ctx, type FleetChange, FleetLiveHub, sweepProviderIncidents } from "@breakwater/core";
import { freePort } from "@breakwater/queue/testing";
import { pino } from "pino";
import { repoRoot } from "../../src/paths";

export interface BurstOptions {
  ctx: Ctx;
  organizationId: string;
  project: { id: string; apiKey: string };
  instances: number;
  gapSeconds: number;
  env: Record<string, string | undefined>;
  log: (s: string) => void;
  cleanups: (() => Promise<unknown> | unknown)[];
  /** Where the SDK API process writes a V8 CPU profile (none when absent). */
  cpuProfDir?: string;
}

const SENDERS = 32;
const WAVE_SECONDS = 10;
const QUIET_SECONDS = 5;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};

/** A lean SDK API process of its own on a free port, up and answering /health. */
export async function startSdkApi(
  env: Record<string, string | undefined>,
  cpuProfDir?: string,
): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort(3600, 3699);
  // --cpu-prof <dir>: a V8 CPU profile of the SDK API process, written when it stops.
  const prof = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
  const proc = spawn(
    process.execPath,
    [...prof, "--import", "tsx", path.join(repoRoot, "packages/wire/src/main.ts")],
    {
      cwd: repoRoot,
      env: {
        ...env,
        SDK_PORT: String(port),
        SDK_API_WORKERS: "1",
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        AUTH_SECRET: randomBytes(24).toString("hex"),
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error("the SDK API exited at start");
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { port, proc };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the SDK API did not come up");
}

export async function runBurst(o: BurstOptions) {
  const { ctx, project, instances: n, log } = o;
  await ctx.db.project.update({
    where: { id: project.id },
    data: { incidentThresholdPct: null, incidentMinDurationSecs: 0, incidentQuietSecs: QUIET_SECONDS },
  });
  const sdk = await startSdkApi(o.env, o.cpuProfDir);
  o.cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        sdk.proc.once("exit", () => resolve());
        sdk.proc.kill("SIGTERM");
      }),
  );
  // Enough sockets that a slow answer never holds back the next instance's report.
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const path_ = `/api/v1/projects/${project.id}/providers/breaker-reports`;
  const post = (body: string) =>
    new Promise<number>((resolve) => {
      const req = request(
        {
          agent,
          host: "127.0.0.1",
          port: sdk.port,
          path: path_,
          method: "POST",
          headers: {
            authorization: `Bearer ${project.apiKey}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", () => resolve(-1));
      req.end(body);
    });
  const pods = Array.from({ length: n }, (_, i) => `pod-${i.toString(36).padStart(4, "0")}`);
  const body = (pod: string, state: string, at: number) =>
    JSON.stringify({
      provider: "openai",
      state,
      failure_count: state === "open" ? 5 : 0,
      success_count: state === "open" ? 0 : 3,
      reported_at: new Date(at).toISOString(),
      sdk_instance_id: pod,
    });

  /**
   * Every instance reports `state` once. Paced (`seconds`): open loop, each report sent at its due
   * time whatever the answers before it — 20,000 independent SDK instances, not a client that waits
   * — and its latency counted from that due time. Unpaced (null): SENDERS at a time, as fast as
   * answered (the first reports).
   */
  const wave = async (state: string, seconds: number | null) => {
    const started = performance.now();
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const note = (status: number, due: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      latencies.push(performance.now() - due);
    };
    if (seconds === null) {
      let next = 0;
      await Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < n) {
            const k = next++;
            const due = performance.now();
            note(await post(body(pods[k]!, state, Date.now())), due);
          }
        }),
      );
    } else {
      const interval = (seconds * 1000) / n;
      const sent: Promise<void>[] = [];
      let k = 0;
      await new Promise<void>((resolve) => {
        const tick = () => {
          const now = performance.now();
          while (k < n && started + k * interval <= now) {
            const due = started + k * interval;
            sent.push(post(body(pods[k]!, state, Date.now())).then((status) => note(status, due)));
            k++;
          }
          if (k < n) setTimeout(tick, Math.max(0, started + k * interval - performance.now() - 0.5));
          else resolve();
        };
        tick();
      });
      await Promise.all(sent);
    }
    return {
      seconds: (performance.now() - started) / 1000,
      p50: pct(latencies, 50),
      p99: pct(latencies, 99),
      max: Math.max(...latencies),
      statuses,
    };
  };

  // The incident's live push, as the dashboard's fleet.live subscription receives it.
  const hub = new FleetLiveHub({ redis: { REDIS_URL: o.env.REDIS_URL! }, log: pino({ level: "silent" }) });
  o.cleanups.push(() => hub.close());
  const pushes: { change: FleetChange; at: number }[] = [];
  const unsubscribe = await hub.subscribe(o.organizationId, (change) => {
    if (change.kind === "incident") pushes.push({ change, at: Date.now() });
  });

  log(`burst: ${n} instances report closed (first reports)…`);
  const warm = await wave("closed", null);
  log(
    `  ${warm.seconds.toFixed(1)} s, ${(n / warm.seconds).toFixed(0)} reports/s, ${JSON.stringify(warm.statuses)}`,
  );
  log(`burst: ${n} instances open their breaker, paced over ${WAVE_SECONDS} s…`);
  const open = await wave("open", WAVE_SECONDS);
  log(
    `  answered in ${open.seconds.toFixed(1)} s, p50 ${open.p50.toFixed(0)} ms, p99 ${open.p99.toFixed(0)} ms`,
  );
  await new Promise((r) => setTimeout(r, 1_000));
  const incident = await ctx.db.providerIncident.findFirst({
    where: { projectId: project.id, provider: "openai" },
    orderBy: { openedAt: "asc" },
  });
  const openedPush = pushes.find((p) => p.change.provider === "openai");
  const pushDelayMs =
    incident?.openedAt && openedPush ? openedPush.at - incident.openedAt.getTime() : Number.NaN;
  log(`burst: waiting ${o.gapSeconds} s before recovery…`);
  await new Promise((r) => setTimeout(r, o.gapSeconds * 1000));
  log(`burst: ${n} instances close their breaker, paced over ${WAVE_SECONDS} s…`);
  const close = await wave("closed", WAVE_SECONDS);
  log(
    `  answered in ${close.seconds.toFixed(1)} s, p50 ${close.p50.toFixed(0)} ms, p99 ${close.p99.toFixed(0)} ms`,
  );
  // The quiet period runs out; the worker's sweep would then resolve the incident.
  await new Promise((r) => setTimeout(r, (QUIET_SECONDS + 1) * 1000));
  await sweepProviderIncidents(ctx, { projectIds: [project.id] });
  unsubscribe();

  const transitions = await ctx.db.breakerTransition.groupBy({
    by: ["fromState", "toState"],
    where: { projectId: project.id },
    _count: true,
  });
  const events = await ctx.db.$queryRaw<
    { type: string; n: number; instances: number; deliverable: number }[]
  >`
    SELECT type, count(*)::int AS n, count(DISTINCT payload->'data'->>'sdk_instance_id')::int AS instances,
           count(*) FILTER (WHERE deliverable)::int AS deliverable
    FROM webhook_events WHERE project_id = ${project.id} GROUP BY type ORDER BY type`;
  const incidents = await ctx.db.providerIncident.findMany({ where: { projectId: project.id } });
  const t = Object.fromEntries(transitions.map((x) => [`${x.fromState}->${x.toState}`, x._count]));
  const ev = Object.fromEntries(events.map((e) => [e.type, e]));
  const exact =
    t["null->closed"] === n &&
    t["closed->open"] === n &&
    t["open->closed"] === n &&
    ev.circuit_breaker_opened?.n === n &&
    ev.circuit_breaker_opened?.instances === n &&
    ev.circuit_breaker_closed?.n === n &&
    ev.circuit_breaker_closed?.instances === n &&
    incidents.length === 1 &&
    incidents[0]!.resolvedAt !== null &&
    ev.provider_incident_opened?.n === 1 &&
    ev.provider_incident_resolved?.n === 1;
  return {
    instances: n,
    wave_seconds: WAVE_SECONDS,
    gap_seconds: o.gapSeconds,
    first_reports: warm,
    open,
    close,
    transitions: t,
    events: Object.fromEntries(
      events.map((e) => [e.type, { n: e.n, instances: e.instances, deliverable: e.deliverable }]),
    ),
    incidents: incidents.map((i) => ({ status: i.status, opened_at: i.openedAt, resolved_at: i.resolvedAt })),
    incident_push_delay_ms: pushDelayMs,
    exact,
    pass: exact && open.p99 <= 500 && close.p99 <= 500 && pushDelayMs <= 2000,
  };
}
