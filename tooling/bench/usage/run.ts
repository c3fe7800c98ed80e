/**
 * npm run bench:usage — the usage pages at scale: 1,000,000 metadata events over 30 days for one
 * project (a realistic spread of providers, models, statuses, fallbacks, tags, runs and unpriced
 * calls), generated in Postgres with generate_series, then:
 *   1. the full rollup build (rollUpUsage from an empty watermark: what the worker does after an
 *      upgrade), and one steady-state step after 1,000 fresh events;
 *   2. usage.overview through the tRPC server caller (a signed-in viewer session) for 30-day,
 *      7-day and 1-day ranges over the organization and for the one project: p50/p95 server time.
 * Target: overview p95 ≤ 300 ms.
 *
 * Postgres: the server of DATABASE_URL, database `bw_bench_usage` (created, migrated, dropped at
 * the end unless --keep). No Redis is needed.
 * Options: --events N (1000000), --days N (30), --samples N (60), --keep.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createAuth, createCaller, createContext } from "@breakwater/api";
import { parseConfig, processEnv } from "@breakwater/config";
import { createProject, ensureEventPartitions, rollUpUsage, seedDefaultPlans } from "@breakwater/core";
import pg from "pg";
import { ensurePostgresDatabase } from "../../scripts/launcher/probe";
import { createToolDeps } from "../../src/deps";
import { repoRoot } from "../../src/paths";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    events: { type: "string", default: "1000000" },
    days: { type: "string", default: "30" },
    samples: { type: "string", default: "60" },
    keep: { type: "boolean", default: false },
  },
});
const EVENTS = Number(flags.events);
const DAYS = Number(flags.days);
const SAMPLES = Math.max(50, Number(flags.samples));
const DB_NAME = "bw_bench_usage";

const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};

function runToEnd(cmd: string, args: string[], env: Record<string, string | undefined>): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: repoRoot, env, stdio: ["ignore", "ignore", "inherit"] });
    p.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}`)),
    );
  });
}

/**
 * One INSERT … SELECT over generate_series: event i lands at an even spacing over the window with
 * a daily rhythm in its model mix; a hash of i picks everything else, so every run seeds the same.
 * Costs follow the catalogue's arithmetic (per-million rates); the house model has no card.
 */
const SEED_SQL = `
WITH m(k, provider, model, in_rate, out_rate) AS (VALUES
  (0, 'openai', 'gpt-5.5', 1.25, 10.0), (1, 'openai', 'gpt-5-mini', 0.25, 2.0),
  (2, 'anthropic', 'claude-sonnet-4-5', 3.0, 15.0), (3, 'anthropic', 'claude-haiku-4-5', 1.0, 5.0),
  (4, 'google', 'gemini-2.5-pro', 1.25, 10.0), (5, 'google', 'gemini-2.5-flash', 0.3, 2.5),
  (6, 'bedrock', 'anthropic.claude-sonnet-4-5', 3.0, 15.0), (7, 'mistral', 'mistral-large-latest', 2.0, 6.0),
  (8, 'openai', 'gpt-5.5', 1.25, 10.0), (9, 'local', 'house-llama-70b', NULL, NULL)
), g AS (
  SELECT i, hashint4(i) AS h1, hashint4(i + 7919) AS h2, hashint4(i + 104729) AS h3
    FROM generate_series(0, $2::int - 1) i
), e AS (
  SELECT g.i,
         $3::timestamptz + (g.i::float8 / $2::int) * ($4::float8 * interval '1 day') AS ts,
         abs(g.h1) % 10 AS mk,
         abs(g.h1 / 10) % 1000 AS r_status,
         abs(g.h2) % 1000 AS r_fb,
         abs(g.h2 / 1000) % 1000 AS r_tag,
         abs(g.h3) % 5000 AS run,
         abs(g.h3 / 5000) % 4000 AS r_tok,
         abs(g.h1 / 10000) % 1000 AS r_lat
    FROM g
), f AS (
  SELECT e.*, m.provider, m.model, m.in_rate, m.out_rate,
         CASE WHEN r_status < 40 THEN 'error' WHEN r_status < 70 THEN 'budget_denied' ELSE 'success' END AS status,
         (r_status >= 70 AND r_fb < 60) AS fallback,
         200 + r_tok * 2 AS in_tok,
         CASE WHEN r_status BETWEEN 40 AND 69 THEN 0 ELSE 20 + (r_tok % 700) END AS out_tok,
         -- log-normal-ish latency: 80 ms … ~20 s, median ≈ 700 ms
         CASE WHEN r_status BETWEEN 40 AND 69 THEN 0
              ELSE (80 * exp((r_lat / 1000.0) * 3 + (r_tok % 100) / 100.0 - 0.5))::int END AS lat
    FROM e JOIN m ON m.k = e.mk
)
INSERT INTO metadata_events (project_id, call_id, attempt_index, "timestamp", sdk_instance_id, model, provider,
  status, input_tokens, output_tokens, latency_ms, is_model_fallback, is_provider_fallback, requested_provider,
  requested_model, failover_reason, agent_run_id, tags, cost_usd, avoided_cost_usd, priced, received_at)
SELECT $1, gen_random_uuid(), CASE WHEN fallback THEN 1 ELSE 0 END, ts, 'sdk-' || (i % 40), model, provider,
       status, in_tok, out_tok, lat,
       fallback AND r_fb % 2 = 0, fallback AND r_fb % 2 = 1,
       CASE WHEN fallback THEN (ARRAY['openai','anthropic','google'])[1 + r_fb % 3] END,
       CASE WHEN fallback THEN 'primary-model' END,
       CASE WHEN fallback THEN (ARRAY['rate_limited','timeout','server_error','circuit_open'])[1 + (r_fb / 3) % 4] END,
       CASE WHEN run < 4000 THEN 'run-' || run ELSE '_auto-sdk-' || (i % 40) || '-' || to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') END,
       CASE WHEN r_tag < 400 THEN jsonb_build_object('team', 'team-' || (r_tag % 8))
            WHEN r_tag < 700 THEN jsonb_build_object('team', 'team-' || (r_tag % 8), 'env', (ARRAY['prod','staging'])[1 + r_tag % 2],
                                                     'feature', 'feature-' || (r_tag % 20))
            ELSE NULL END,
       CASE WHEN status = 'budget_denied' OR in_rate IS NULL THEN NULL
            ELSE round((in_tok * in_rate + out_tok * out_rate) / 1000000.0, 10) END,
       CASE WHEN status = 'budget_denied' AND in_rate IS NOT NULL
            THEN round((in_tok * in_rate + 1024 * out_rate) / 1000000.0, 10) END,
       in_rate IS NOT NULL,
       now() - interval '1 minute'
  FROM f
ON CONFLICT DO NOTHING`;

/** The runs the events name, with their totals (what ingest's upsert keeps). */
const RUNS_SQL = `
INSERT INTO agent_runs (project_id, agent_run_id, is_auto, first_seen_at, last_seen_at, call_count, cost_usd,
                        avoided_cost_usd, unpriced_calls, name)
SELECT project_id, agent_run_id, agent_run_id LIKE '\\_auto-%', min("timestamp"), max("timestamp"), count(*),
       coalesce(sum(cost_usd), 0), coalesce(sum(avoided_cost_usd), 0), count(*) FILTER (WHERE NOT priced),
       CASE WHEN agent_run_id LIKE 'run-%' THEN 'nightly ' || agent_run_id END
  FROM metadata_events WHERE project_id = $1 GROUP BY project_id, agent_run_id`;

async function main() {
  const base = parseConfig(processEnv());
  const dbUrl = new URL(base.DATABASE_URL);
  dbUrl.pathname = `/${DB_NAME}`;
  const databaseUrl = dbUrl.toString();
  const adminUrl = new URL(base.DATABASE_URL);
  adminUrl.pathname = "/postgres";
  // A clean database every run: the figures never depend on an earlier one.
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
  const ok = await ensurePostgresDatabase(databaseUrl);
  if (!ok.ok) throw new Error(`Postgres for the benchmark: ${ok.reason}`);
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  if (!flags.keep) {
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      await c.end();
    });
  }
  const onSignal = () => {
    log("interrupted: cleaning up…");
    void (async () => {
      for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
      process.exit(130);
    })();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const env = { ...processEnv(), DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" };
    log(`setup: migrate ${DB_NAME}, seed plans…`);
    await runToEnd("npm", ["run", "-s", "-w", "@breakwater/db", "prisma", "--", "migrate", "deploy"], env);
    const config = parseConfig({ ...env, AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01" });
    const deps = createToolDeps(config, "bench");
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    cleanups.push(
      () => pool.end(),
      () => deps.db.$disconnect(),
    );
    await seedDefaultPlans(deps.db);

    // A signed-in owner of a business organization, as the dashboard's server components are.
    const auth = createAuth(deps);
    const signed = await auth.api.signUpEmail({
      body: { email: `bench-${Date.now()}@example.test`, name: "Bench", password: "correct horse battery" },
      returnHeaders: true,
    });
    const token = /better-auth\.session_token=([^;]+)/.exec(signed.headers.get("set-cookie") ?? "")?.[1];
    if (!token) throw new Error("sign-up set no session cookie");
    const headers = new Headers({ cookie: `better-auth.session_token=${token}` });
    const caller = async () => createCaller(await createContext({ deps, auth, headers }));
    const org = await (await caller()).organization.create({ name: "Usage bench" });
    const plan = await deps.db.plan.findUniqueOrThrow({ where: { slug: "business" } });
    await deps.db.subscription.update({ where: { organizationId: org.id }, data: { planId: plan.id } });
    const sys = { ...deps, actor: { type: "system" as const, name: "bench" } };
    const main = await createProject(sys, {
      organizationId: org.id,
      name: "busy",
      limits: { daily: 500, weekly: 2500, monthly: 10000 },
    });
    await createProject(sys, { organizationId: org.id, name: "quiet", limits: { monthly: 100 } });

    const now = new Date();
    const start = new Date(now.getTime() - DAYS * 86_400_000);
    log(`seed: ${EVENTS.toLocaleString("en")} events over ${DAYS} days for one project (generate_series)…`);
    // One partition per day of the seeded history, as the worker keeps them for live traffic.
    await ensureEventPartitions(deps.db, start, now);
    let t = performance.now();
    await pool.query("SET synchronous_commit = off");
    await pool.query(SEED_SQL, [main.id, EVENTS, start, DAYS]);
    await pool.query(RUNS_SQL, [main.id]);
    await pool.query("VACUUM ANALYZE metadata_events");
    await pool.query("VACUUM ANALYZE agent_runs");
    const seedS = (performance.now() - t) / 1000;
    const [shape] = (
      await pool.query(
        `SELECT count(*)::int AS events, count(*) FILTER (WHERE NOT priced AND status <> 'budget_denied')::int AS unpriced,
                count(*) FILTER (WHERE is_model_fallback OR is_provider_fallback)::int AS fallbacks,
                count(DISTINCT agent_run_id)::int AS runs FROM metadata_events`,
      )
    ).rows;
    log(
      `  seeded in ${seedS.toFixed(1)} s: ${shape.events} events, ${shape.unpriced} unpriced, ${shape.fallbacks} fallbacks, ${shape.runs} runs`,
    );

    log("rollup: full build from an empty watermark (rollUpUsage)…");
    t = performance.now();
    const built = await rollUpUsage(deps.db, { timeBudgetMs: 3_600_000 });
    const buildS = (performance.now() - t) / 1000;
    const [rows] = (
      await pool.query(
        `SELECT (SELECT count(*) FROM usage_rollups)::int AS usage, (SELECT count(*) FROM usage_tag_rollups)::int AS tags,
                (SELECT count(*) FROM usage_failover_rollups)::int AS failovers`,
      )
    ).rows;
    log(
      `  built in ${buildS.toFixed(1)} s: ${built.hoursRebuilt} hours, ${rows.usage} usage rows, ${rows.tags} tag rows, ${rows.failovers} failover rows`,
    );
    await pool.query("VACUUM ANALYZE usage_rollups, usage_tag_rollups, usage_failover_rollups");

    // Steady state: 1,000 events arrive in the current hour; one scheduler step folds them in.
    await pool.query(SEED_SQL.replace("now() - interval '1 minute'", "now()"), [
      main.id,
      1000,
      new Date(now.getTime() - 30 * 60_000),
      0.02,
    ]);
    t = performance.now();
    const step = await rollUpUsage(deps.db);
    const stepMs = performance.now() - t;
    log(
      `  steady-state step after 1,000 new events: ${stepMs.toFixed(0)} ms (${step.hoursRebuilt} hours rebuilt)`,
    );

    const day = (d: Date) => d.toISOString().slice(0, 10);
    const today = day(now);
    const cases = [
      { name: "30 days, organization", input: { from: day(start), to: today } },
      {
        name: "7 days, organization",
        input: { from: day(new Date(now.getTime() - 6 * 86_400_000)), to: today },
      },
      { name: "1 day, organization", input: { from: today, to: today } },
      { name: "30 days, project", input: { projectId: main.id, from: day(start), to: today } },
      {
        name: "7 days, project, hourly",
        input: {
          projectId: main.id,
          from: day(new Date(now.getTime() - 6 * 86_400_000)),
          to: today,
          granularity: "hour" as const,
        },
      },
    ];
    const results: { name: string; p50: number; p95: number; calls: number }[] = [];
    for (const c of cases) {
      log(`overview: ${c.name}, ${SAMPLES} samples…`);
      const api = await caller();
      const first = await api.usage.overview(c.input);
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        await (await caller()).usage.overview(c.input);
        times.push(performance.now() - t0);
      }
      results.push({ name: c.name, p50: pct(times, 50), p95: pct(times, 95), calls: first.totals.calls });
    }

    const load = os.loadavg().map((x) => x.toFixed(1));
    const result = {
      events: shape.events,
      days: DAYS,
      seed_s: Number(seedS.toFixed(1)),
      rollup_build_s: Number(buildS.toFixed(1)),
      rollup_rows: rows,
      steady_step_ms: Math.round(stepMs),
      overview_ms: Object.fromEntries(
        results.map((r) => [r.name, { p50: Math.round(r.p50), p95: Math.round(r.p95), target: 300 }]),
      ),
      load_average: load,
      cpus: os.cpus().length,
    };
    log("");
    log(
      `bench:usage — ${shape.events.toLocaleString("en")} events over ${DAYS} days, one project; load average ${load.join(" ")} on ${os.cpus().length} CPUs`,
    );
    log(
      `seed ${seedS.toFixed(1)} s · full rollup build ${buildS.toFixed(1)} s · steady step ${stepMs.toFixed(0)} ms`,
    );
    for (const r of results) {
      log(
        `overview ${r.name.padEnd(26)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms   target ≤ 300 ms   ${r.p95 <= 300 ? "PASS" : "FAIL"}   (${r.calls} calls)`,
      );
    }
    process.stdout.write(`JSON ${JSON.stringify(result)}\n`);
    mkdirSync(path.join(here, "results"), { recursive: true });
    writeFileSync(path.join(here, "results", "latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(`bench:usage failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
