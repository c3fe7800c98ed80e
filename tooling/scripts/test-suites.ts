/**
 * `npm test`'s suites after the builds: every workspace's `test:int`, in two lanes that run side by
 * side, then (with `--e2e`) the Playwright specs alone. One package at a time left a core of the
 * 2-core machine idle for most of the stage — the suites wait on timers, sockets and child servers
 * far more than they compute — and took 13 minutes. The Playwright specs run after the lanes, not
 * beside them: tried side by side, the machine was simply full (load 15; the untimed specs took
 * 10.7 min instead of 7, the whole no sooner) and a Redis command deadline test failed.
 *
 * The lanes never share a store: the first runs on the harness defaults (the test database, Redis
 * db 1 of the local server, the cluster on 7001–7003); the second on a copy of the freshly prepared
 * test database (CREATE DATABASE … TEMPLATE), a private redis-server and a private 3-master cluster
 * started here and stopped after, and port ranges of its own (TEST_PORT_OFFSET). Pub/sub channels,
 * `CLIENT KILL TYPE pubsub`, FLUSHDB and killed cluster masters in one lane cannot reach the other.
 *
 *   npx tsx tooling/scripts/test-suites.ts [--e2e]   (runs db:test-prepare first; the e2e specs
 *                                                     need the builds: `npm run build`)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { startPrivateCluster, startPrivateRedis } from "@breakwater/queue/testing";
import pg from "pg";
import { testHarnessEnv } from "../../packages/config/src/test-env";
import { repoRoot } from "../src/paths";
import { planLanes } from "./test-lanes";

interface Workspace {
  name: string;
  dir: string;
}

/** Workspaces with a test:int script, from the root package.json's `workspaces` (`dir` or `dir/*`). */
function workspacesWithIntSuites(): Workspace[] {
  const readPkg = (dir: string) =>
    JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      workspaces?: string[];
      scripts?: Record<string, string>;
    };
  const dirs = (readPkg(repoRoot).workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [path.join(repoRoot, pattern)];
    const parent = path.join(repoRoot, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(parent, e.name, "package.json")))
      .map((e) => path.join(parent, e.name));
  });
  return dirs
    .map((dir) => ({ dir, pkg: readPkg(dir) }))
    .filter(({ pkg }) => pkg.scripts?.["test:int"])
    .map(({ dir, pkg }) => ({ name: pkg.name, dir }));
}

/** Runs `npm run -s <script>` in `dir`, its output prefixed like turbo's (`name:script: `). */
function runScript(
  name: string,
  dir: string,
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", script], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    const prefix = `${name}:${script}: `;
    for (const stream of [child.stdout, child.stderr]) {
      let pending = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        pending += chunk;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
      });
      stream.on("end", () => {
        if (pending) process.stdout.write(`${prefix}${pending}\n`);
      });
    }
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), ms: Date.now() - started }),
    );
  });
}

const withE2e = process.argv.includes("--e2e");
const prepare = spawnSync("npx", ["tsx", "tooling/scripts/prepare-test-db.ts"], {
  cwd: repoRoot,
  stdio: "inherit",
});
if (prepare.status !== 0) process.exit(prepare.status ?? 1);

const harness = testHarnessEnv();
const laneDb = new URL(harness.TEST_DATABASE_URL);
laneDb.pathname = `${laneDb.pathname}_lane2`;
const dbName = (u: URL | string) => decodeURIComponent(new URL(u).pathname.slice(1));
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const admin = new URL(harness.TEST_DATABASE_URL);
admin.pathname = "/postgres";
const pgAdmin = new pg.Client({ connectionString: admin.toString() });
await pgAdmin.connect();
await pgAdmin.query(`DROP DATABASE IF EXISTS ${quoted(dbName(laneDb))} WITH (FORCE)`);
// Nothing is connected to the freshly prepared database yet: it can be the template.
await pgAdmin.query(
  `CREATE DATABASE ${quoted(dbName(laneDb))} TEMPLATE ${quoted(dbName(harness.TEST_DATABASE_URL))}`,
);

const redis = await startPrivateRedis();
const cluster = await startPrivateCluster({ masters: 3 });
const stopStores = async () => {
  await Promise.allSettled([redis.stop(), cluster.stop()]);
  await pgAdmin.query(`DROP DATABASE IF EXISTS ${quoted(dbName(laneDb))} WITH (FORCE)`).catch(() => {});
  await pgAdmin.end().catch(() => {});
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    redis.killNow();
    void cluster.stop().finally(() => process.exit(130));
  });
}

const base: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" };
const laneEnvs: NodeJS.ProcessEnv[] = [
  base,
  {
    ...base,
    TEST_DATABASE_URL: laneDb.toString(),
    TEST_REDIS_URL: `redis://127.0.0.1:${redis.port}/1`,
    TEST_REDIS_CLUSTER_NODES: cluster.nodes,
    // Ranges of its own: 3340–3399 → 4340–4399, private clusters 7200–7399 → 8200–8399.
    TEST_PORT_OFFSET: "1000",
  },
];

const workspaces = workspacesWithIntSuites();
const lanes = planLanes(workspaces.map((w) => w.name));
const results: { name: string; lane: string; code: number; ms: number }[] = [];
const stageStarted = Date.now();
await Promise.all(
  lanes.map(async (names, lane) => {
    for (const name of names) {
      const ws = workspaces.find((w) => w.name === name)!;
      const r = await runScript(ws.name, ws.dir, "test:int", laneEnvs[lane]!);
      results.push({ name, lane: `lane ${lane + 1}`, ...r });
    }
  }),
);
await stopStores();
if (withE2e) {
  // Its own database and Redis db (E2E_*), copied fresh by db:test-prepare above.
  const r = await runScript("@breakwater/web", path.join(repoRoot, "apps", "web"), "test:e2e", base);
  results.push({ name: "Playwright specs", lane: "alone", ...r });
}

const failed = results.filter((r) => r.code !== 0);
process.stdout.write(
  `\nSuites (${((Date.now() - stageStarted) / 1000).toFixed(0)} s):\n${results
    .map(
      (r) =>
        `  ${r.lane.padEnd(7)} ${r.name.padEnd(26)} ${(r.ms / 1000).toFixed(0).padStart(4)} s  ${r.code === 0 ? "ok" : `FAILED (exit ${r.code})`}`,
    )
    .join("\n")}\n`,
);
process.exit(failed.length > 0 ? 1 : 0);
