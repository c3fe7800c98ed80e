/**
 * A fleet's steady heartbeats, open loop, from a process of its own (so the sender shares no event
 * loop with what is measured): every live instance the SQL seed made (`live-<i>` per project and
 * provider, in the state the seed gave it) reports its unchanged breaker state in turn, at `rate`
 * reports a second, each stamped with its send time. Started by `bench:fleet --stale … ` beside
 * the reads and the live-update measurement; on SIGTERM (or after `seconds`) it prints one JSON
 * line of what it sent and how it was answered.
 *
 * Configuration: the first argument, JSON of
 * { port, projects: [{ id, apiKey }], perProject, providers, rate, seconds }.
 */
import { Agent, request } from "node:http";

interface Flow {
  port: number;
  projects: { id: string; apiKey: string }[];
  perProject: number;
  providers: string[];
  rate: number;
  seconds: number;
}

const flow = JSON.parse(process.argv[2] ?? "{}") as Flow;
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const statuses: Record<string, number> = {};
const latencies: number[] = [];
let sent = 0;
let inFlight = 0;

/** The state the SQL seed gave instance i (bench:fleet --stale). */
const stateOf = (i: number) => (i % 50 === 0 ? "open" : i % 97 === 0 ? "half_open" : "closed");

function post(project: { id: string; apiKey: string }, body: string, due: number): void {
  sent++;
  inFlight++;
  const done = (status: number) => {
    inFlight--;
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies.push(performance.now() - due);
  };
  const req = request(
    {
      agent,
      host: "127.0.0.1",
      port: flow.port,
      path: `/api/v1/projects/${project.id}/providers/breaker-reports`,
      method: "POST",
      headers: {
        authorization: `Bearer ${project.apiKey}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      },
    },
    (res) => {
      res.resume();
      res.on("end", () => done(res.statusCode ?? 0));
    },
  );
  req.on("error", () => done(-1));
  req.end(body);
}

// Instances in turn: project by project, provider by provider, instance by instance.
const total = flow.projects.length * flow.providers.length * flow.perProject;
let cursor = 0;
function next(due: number): void {
  const k = cursor++ % total;
  const i = (k % flow.perProject) + 1;
  const rest = Math.floor(k / flow.perProject);
  const provider = flow.providers[rest % flow.providers.length]!;
  const project = flow.projects[Math.floor(rest / flow.providers.length)]!;
  const state = stateOf(i);
  post(
    project,
    JSON.stringify({
      provider,
      state,
      failure_count: state === "open" ? 5 : 0,
      success_count: state === "open" ? 0 : 5,
      reported_at: new Date().toISOString(),
      sdk_instance_id: `live-${i}`,
    }),
    due,
  );
}

const started = performance.now();
const TICK_MS = 10;
let owed = 0;
const timer = setInterval(() => {
  // Open loop: what the schedule owes since the last tick is sent now, answered or not.
  const elapsed = performance.now() - started;
  const due = Math.floor((elapsed / 1000) * flow.rate);
  for (; owed < due; owed++) next(started + (owed / flow.rate) * 1000);
  if (elapsed >= flow.seconds * 1000) stop();
}, TICK_MS);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};

function stop(): void {
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      seconds: Number(seconds.toFixed(1)),
      sent,
      per_second: Math.round(sent / seconds),
      statuses,
      in_flight: inFlight,
      p50_ms: Number(pct(latencies, 50).toFixed(1)),
      p99_ms: Number(pct(latencies, 99).toFixed(1)),
    })}\n`,
    () => process.exit(0),
  );
}
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
