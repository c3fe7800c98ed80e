/**
 * npm run bench:fleet — the fleet pages at scale: 10,000 SDK instances × 5 providers over 20
 * projects (50,000 breaker snapshots), seeded through the fleet simulator over the real wire API
 * (a lean SDK API server in this process), then:
 *   1. the overview's server time (getFleetOverview, what fleet.overview runs) p50/p95;
 *   2. the provider page's server time (getProviderHealth, 90-day bars) p50/p95 over random cells,
 *      and its paged tables: the first page of the instance table (each status filter in turn)
 *      beside the first page of the failover feed;
 *   3. report → page-update latency p95: the production dashboard with Chromium open on /fleet, a
 *      report of `open` posted to the wire API, timed until the cell shows it (skipped with --no-browser).
 * Targets: overview ≤ 300 ms, provider page ≤ 300 ms, live update ≤ 2 s.
 *
 * Postgres: the server of DATABASE_URL, database `breakwater_bench_fleet` or --database NAME (created,
 * migrated, breaker and event tables emptied on every run). Redis: a private redis-server on a free port.
 * Options: --instances N (default 10000), --projects N (20), --providers a,b,… (5), --samples N (60),
 * --updates N (20), --no-browser.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseConfig, processEnv } from "@breakwater/config";
import {
  createApiKey,
  createOrganization,
  createProject,
  getFleetOverview,
  getProviderHealth,
  listFailoverFeed,
  listIncidents,
  listOpenIncidents,
  listProviderInstances,
  PROVIDER_INSTANCE_FILTERS,
  systemCtx,
} from "@breakwater/core";
import { freePort, startPrivateRedis } from "@breakwater/queue/testing";
import { createWireRuntime, createWireServer } from "@breakwater/wire";
import pg from "pg";
import { ensurePostgresDatabase } from "../../scripts/launcher/probe";
import { FleetSimulator } from "../../simulator/simulator";
import { createToolDeps } from "../../src/deps";
import { repoRoot } from "../../src/paths";
import { seed } from "../../src/seed";
import { runBurst } from "./burst";
import { type FlowHandle, startHeartbeatFlow } from "./flow";
import { measureLiveUpdates } from "./live";

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    instances: { type: "string", default: "10000" },
    projects: { type: "string", default: "20" },
    providers: { type: "string", default: "openai,anthropic,google,bedrock,mistral" },
    samples: { type: "string", default: "60" },
    updates: { type: "string", default: "20" },
    "no-browser": { type: "boolean", default: false },
    /** An outage burst of N instances instead of the read measurements (see burst.ts). */
    burst: { type: "string" },
    /** Seconds between the burst's opening and its recovery. */
    gap: { type: "string", default: "60" },
    /** With --burst: write a V8 CPU profile of the SDK API process to this folder. */
    "cpu-prof": { type: "string" },
    /**
     * Stale snapshots (silent past BREAKER_STALE_SECONDS, within retention) seeded beside the live
     * ones: with it, the fleet is seeded straight into Postgres (live instances spread over the
     * projects, 2 % Down, 1 % Recovering), not through the simulator — the scale the reads must hold.
     */
    stale: { type: "string" },
    reuse: { type: "boolean", default: false },
    /**
     * With --stale: heartbeats a second the seeded fleet sends while the reads and the live updates
     * are measured (a process of its own against an SDK API process of its own; 0 = none).
     */
    heartbeats: { type: "string", default: "5000" },
    /** The database on DATABASE_URL's server (a branch's indexes stay out of another's runs). */
    database: { type: "string", default: "breakwater_bench_fleet" },
  },
});
const INSTANCES = Number(flags.instances);
const PROJECTS = Number(flags.projects);
const PROVIDERS = String(flags.providers).split(",");
const SAMPLES = Number(flags.samples);
/** Reports in flight while seeding: an SDK fleet's steady trickle, not a stampede on the pool. */
const CONCURRENCY = 8;

const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};

function runToEnd(cmd: string, args: string[], env: Record<string, string | undefined>): Promise<void> {
  return new Promise((resolve, reject) => {
    const p: ChildProcess = spawn(cmd, args, { cwd: repoRoot, env, stdio: ["ignore", "ignore", "inherit"] });
    p.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}`)),
    );
  });
}

async function main() {
  const base = parseConfig(processEnv());
  const dbUrl = new URL(base.DATABASE_URL);
  if (!/^[a-z0-9_]{1,63}$/.test(String(flags.database))) throw new Error("--database: a lowercase name");
  dbUrl.pathname = `/${flags.database}`;
  const databaseUrl = dbUrl.toString();
  const ok = await ensurePostgresDatabase(databaseUrl);
  if (!ok.ok) throw new Error(`Postgres for the benchmark: ${ok.reason}`);
  const redis = await startPrivateRedis();
  const cleanups: (() => Promise<unknown> | unknown)[] = [() => redis.stop()];
  const onSignal = () => {
    log("interrupted: stopping what the run started…");
    void (async () => {
      for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
      process.exit(130);
    })();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const env = { ...processEnv(), DATABASE_URL: databaseUrl, REDIS_URL: redis.url, LOG_LEVEL: "warn" };
    log(`setup: migrate ${flags.database}, seed plans…`);
    await runToEnd("npm", ["run", "-s", "-w", "@breakwater/db", "prisma", "--", "migrate", "deploy"], env);
    if (!flags.reuse) {
      const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      await admin.query(
        "TRUNCATE breaker_snapshots, breaker_transitions, breaker_episodes, metadata_events, agent_runs CASCADE",
      );
      await admin.end();
    }

    const config = parseConfig(env);
    const deps = createToolDeps(config, "bench");
    cleanups.push(() => deps.db.$disconnect());
    const ctx = systemCtx(deps, "bench");
    await seed(ctx, { dataDir: mkdtempSync(path.join(tmpdir(), "bw-bench-fleet-")), demo: false });
    // --reuse measures the fleet an earlier run seeded (its latest benchmark organization) again.
    const earlier = flags.reuse
      ? await deps.db.organization.findFirst({
          where: { name: { startsWith: "Fleet bench " } },
          orderBy: { createdAt: "desc" },
          select: { id: true },
        })
      : null;
    if (flags.reuse && !earlier)
      throw new Error(`--reuse: no earlier benchmark organization in ${flags.database}`);
    const org =
      earlier ??
      (await createOrganization(ctx, {
        name: `Fleet bench ${new Date().toISOString()}`,
        planSlug: "business",
      }));
    const projects: { id: string; apiKey: string }[] = [];
    if (earlier) {
      const existing = await deps.db.project.findMany({
        where: { organizationId: earlier.id },
        orderBy: { name: "asc" },
        select: { id: true },
      });
      for (const p of existing)
        projects.push({
          id: p.id,
          apiKey: (await createApiKey(ctx, { projectId: p.id, name: "bench" })).apiKey,
        });
    } else {
      for (let i = 0; i < PROJECTS; i++) {
        const p = await createProject(ctx, {
          organizationId: org.id,
          name: `svc-${String(i).padStart(2, "0")}`,
        });
        projects.push({
          id: p.id,
          apiKey: (await createApiKey(ctx, { projectId: p.id, name: "bench" })).apiKey,
        });
      }
    }

    if (flags.burst) {
      const result = await runBurst({
        ctx,
        organizationId: org.id,
        project: projects[0] as { id: string; apiKey: string },
        instances: Number(flags.burst),
        gapSeconds: Number(flags.gap),
        cpuProfDir: flags["cpu-prof"],
        env,
        log,
        cleanups,
      });
      log("");
      log(
        `bench:fleet --burst ${result.instances}: open p99 ${result.open.p99.toFixed(0)} ms, close p99 ${result.close.p99.toFixed(0)} ms (target ≤ 500), incident push ${result.incident_push_delay_ms} ms after opening (≤ 2000), exact ${result.exact} → ${result.pass ? "PASS" : "FAIL"}`,
      );
      process.stdout.write(`JSON ${JSON.stringify(result)}\n`);
      mkdirSync(path.join(here, "results"), { recursive: true });
      writeFileSync(path.join(here, "results", "burst-latest.json"), `${JSON.stringify(result, null, 2)}\n`);
      return;
    }

    // The SDK API in this process, on the private Redis.
    const runtime = await createWireRuntime(config);
    const server = createWireServer(runtime.dispatch, { log: runtime.log });
    const sdkPort = await freePort(3600, 3699);
    await new Promise<void>((r) => server.listen(sdkPort, "127.0.0.1", () => r()));
    cleanups.push(async () => {
      server.close();
      server.closeAllConnections();
      await runtime.close();
    });
    const baseUrl = `http://127.0.0.1:${sdkPort}`;

    const perProject = Math.ceil(INSTANCES / PROJECTS);
    const sqlSeed = flags.stale !== undefined;
    if (sqlSeed && !flags.reuse) {
      const stale = Number(flags.stale);
      const stalePerProject = Math.ceil(stale / PROJECTS / PROVIDERS.length);
      log(
        `seed (SQL): ${PROJECTS} projects × ${perProject} live instances × ${PROVIDERS.length} providers, and ${stalePerProject * PROJECTS * PROVIDERS.length} stale snapshots…`,
      );
      const t0 = Date.now();
      const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      for (const p of projects) {
        await admin.query(
          `INSERT INTO breaker_snapshots
             (project_id, provider, sdk_instance_id, state, failure_count, success_count, reported_at,
              received_at, first_seen_at, state_since)
           SELECT $1, prov, 'live-' || i,
             (CASE WHEN i % 50 = 0 THEN 'open' WHEN i % 97 = 0 THEN 'half_open' ELSE 'closed' END)::"CircuitState",
             0, 5, t, t, now() - interval '1 day', now() - interval '20 minutes'
           FROM generate_series(1, $2::int) i, unnest($3::text[]) prov,
                LATERAL (SELECT now() - random() * interval '60 seconds' AS t) r`,
          [p.id, perProject, PROVIDERS],
        );
        await admin.query(
          `INSERT INTO breaker_snapshots
             (project_id, provider, sdk_instance_id, state, failure_count, success_count, reported_at,
              received_at, first_seen_at, state_since)
           SELECT $1, prov, 'gone-' || i, 'closed', 0, 5, t, t, t - interval '1 hour', t - interval '1 hour'
           FROM generate_series(1, $2::int) i, unnest($3::text[]) prov,
                LATERAL (SELECT now() - interval '200 seconds' - random() * interval '6 days' AS t) r`,
          [p.id, stalePerProject, PROVIDERS],
        );
        process.stderr.write(".");
      }
      await admin.query("VACUUM ANALYZE breaker_snapshots");
      await admin.end();
      log(`\n  seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    let flow: FlowHandle | null = null;
    if (sqlSeed && Number(flags.heartbeats) > 0) {
      flow = await startHeartbeatFlow({
        databaseUrl,
        env,
        redisUrl: redis.url,
        projects,
        perProject,
        providers: PROVIDERS,
        rate: Number(flags.heartbeats),
        log,
        cleanups,
      });
    }
    log(
      `seed: ${PROJECTS} projects × ${perProject} instances × ${PROVIDERS.length} providers through the simulator…`,
    );
    const t0 = Date.now();
    const sims: FleetSimulator[] = [];
    for (const [i, p] of flags.reuse || sqlSeed ? [] : projects.entries()) {
      const sim = new FleetSimulator({
        baseUrl,
        apiKey: p.apiKey,
        projectId: p.id,
        instances: perProject,
        providers: PROVIDERS,
        seed: 1000 + i,
        callRate: 0.3,
        maxInFlight: CONCURRENCY,
        autoOutages: false,
      });
      sims.push(sim);
      await sim.reportAllOnce(CONCURRENCY);
      // A quarter of the projects live through an outage of their primary: breakers open,
      // fallbacks serve, events carry the failovers.
      if (i % 4 === 0) {
        sim.forceOutage(PROVIDERS[0] as string, "down", 10 * 60_000);
        for (let k = 0; k < 8; k++) {
          sim.tick(Date.now() + k * 1000);
          await sim.drain(CONCURRENCY);
        }
        for (const inst of sim.instances) inst.flush(Date.now());
        await sim.drain();
      }
      process.stderr.write(
        `\r  ${i + 1}/${PROJECTS} projects, ${sims.reduce((n, s) => n + s.stats.reports, 0)} reports`,
      );
    }
    const errors = sims.reduce((n, s) => n + s.stats.errors, 0);
    log(`\n  seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s (${errors} wire errors)`);
    if (errors > 0) log(`  last error: ${sims.find((s) => s.stats.lastError)?.stats.lastError}`);

    const viewer = { ...ctx, organizationId: org.id, role: "viewer" as const };
    const snapshots = await deps.db.breakerSnapshot.count();
    const [fleet] = await deps.db.$queryRaw<{ instances: number; projects: number; providers: number }[]>`
      SELECT count(DISTINCT sdk_instance_id)::int AS instances, count(DISTINCT project_id)::int AS projects,
        count(DISTINCT provider)::int AS providers FROM breaker_snapshots`;

    log(`overview: ${SAMPLES} samples…`);
    await getFleetOverview(viewer, { organizationId: org.id });
    const overview: number[] = [];
    let cells = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now();
      const grid = await getFleetOverview(viewer, { organizationId: org.id });
      overview.push(performance.now() - t);
      cells = grid.projects.reduce((n, p) => n + Object.keys(p.cells).length, 0);
    }
    log(`provider page: ${SAMPLES} samples…`);
    const page: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const project = projects[i % projects.length] as { id: string };
      const provider = PROVIDERS[i % PROVIDERS.length] as string;
      const t = performance.now();
      await getProviderHealth(viewer, { projectId: project.id, provider, days: 90 });
      page.push(performance.now() - t);
    }
    log(`provider page tables: ${SAMPLES} samples…`);
    const tables: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const project = projects[i % projects.length] as { id: string };
      const provider = PROVIDERS[i % PROVIDERS.length] as string;
      const status = PROVIDER_INSTANCE_FILTERS[i % PROVIDER_INSTANCE_FILTERS.length];
      const t = performance.now();
      await Promise.all([
        listProviderInstances(viewer, { projectId: project.id, provider, status, limit: 50 }),
        listFailoverFeed(viewer, { projectId: project.id, provider, limit: 25 }),
      ]);
      tables.push(performance.now() - t);
    }

    log(`incidents page: ${SAMPLES} samples…`);
    const incidentsPage: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now();
      await Promise.all([
        listOpenIncidents(viewer, { organizationId: org.id }),
        listIncidents(viewer, { organizationId: org.id, days: 30 }),
      ]);
      incidentsPage.push(performance.now() - t);
    }

    let live: number[] = [];
    if (!flags["no-browser"]) {
      log("live: production dashboard + Chromium on /fleet…");
      live = await measureLiveUpdates({
        ctx,
        organizationId: org.id,
        project: projects[1] as { id: string; apiKey: string },
        provider: PROVIDERS[1] as string,
        sdkBaseUrl: baseUrl,
        env: { DATABASE_URL: databaseUrl, REDIS_URL: redis.url },
        updates: Number(flags.updates),
        cleanups,
      });
    }

    const heartbeats = flow ? await flow.stop() : null;
    const result = {
      heartbeats,
      snapshots,
      instances: fleet?.instances,
      reporting_projects: fleet?.projects,
      cells,
      overview_ms: { p50: pct(overview, 50), p95: pct(overview, 95), target: 300 },
      provider_page_ms: { p50: pct(page, 50), p95: pct(page, 95), target: 300 },
      provider_tables_ms: { p50: pct(tables, 50), p95: pct(tables, 95), target: 300 },
      incidents_page_ms: { p50: pct(incidentsPage, 50), p95: pct(incidentsPage, 95), target: 300 },
      live_update_ms: live.length
        ? { p50: pct(live, 50), p95: pct(live, 95), n: live.length, target: 2000 }
        : null,
    };
    const row = (name: string, r: { p50: number; p95: number; target: number } | null) =>
      r
        ? `${name.padEnd(26)} p50 ${r.p50.toFixed(1).padStart(8)} ms   p95 ${r.p95.toFixed(1).padStart(8)} ms   target ≤ ${r.target} ms   ${r.p95 <= r.target ? "PASS" : "FAIL"}`
        : `${name.padEnd(26)} skipped`;
    log("");
    log(
      `bench:fleet — ${snapshots} snapshots (${fleet?.instances} instances × ${fleet?.providers} providers over ${fleet?.projects} reporting projects of ${projects.length}), ${cells} cells`,
    );
    log(row("overview (server)", result.overview_ms));
    log(row("provider page (server)", result.provider_page_ms));
    log(row("  its tables, a page each", result.provider_tables_ms));
    log(row("incidents page (server)", result.incidents_page_ms));
    log(row("report → page update", result.live_update_ms));
    if (heartbeats) log(`meanwhile heartbeats: ${JSON.stringify(heartbeats)}`);
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
    log(`bench:fleet failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
