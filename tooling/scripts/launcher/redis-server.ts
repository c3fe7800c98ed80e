/** A private redis-server (found on PATH) for machines where none answers: data under .data/redis. */

import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { freePort, pingRedis, waitFor } from "./probe";
import { Service } from "./service";

/** Absolute path of an executable named `name` on PATH, or null. */
export function findOnPath(name: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export interface RedisServer {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts `binary` on a free loopback port with append-only persistence in `<dataRoot>/redis` and the
 * `noeviction` policy BullMQ and the budget counters need; resolves once it answers PING.
 */
export async function startRedisServer(opts: {
  binary: string;
  dataRoot: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}): Promise<RedisServer> {
  const dataDir = path.join(opts.dataRoot, "redis");
  await mkdir(dataDir, { recursive: true });
  const pidFile = path.join(dataDir, "redis.pid");
  await stopLeftover(pidFile, opts.log);
  const port = await freePort();
  // Config on the command line rather than a file: nothing to keep in sync, visible in `ps`.
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--protected-mode",
    "yes",
    "--dir",
    dataDir,
    "--pidfile",
    pidFile,
    "--daemonize",
    "no",
    "--save",
    "",
    "--appendonly",
    "yes",
    "--maxmemory-policy",
    "noeviction",
    "--loglevel",
    "warning",
    "--logfile",
    "",
  ];
  const service = new Service({
    name: "redis",
    command: opts.binary,
    args,
    cwd: dataDir,
    env: opts.env,
    echo: false,
    stopTimeoutMs: 10_000,
  });
  let died = false;
  service.start(() => {
    died = true;
  });
  const url = `redis://127.0.0.1:${port}/0`;
  const up = await waitFor(async () => !died && (await pingRedis(url, 500)).ok, 10_000, 100);
  if (!up) {
    await service.stop();
    throw new Error(`redis-server did not start:\n${service.tail.slice(-10).join("\n")}`);
  }
  return { url, port, dataDir, stop: () => service.stop() };
}

/** A redis-server left behind by a launcher that was killed outright would share the AOF files: stop it. */
async function stopLeftover(pidFile: string, log: (line: string) => void): Promise<void> {
  const pid = Number((await readFile(pidFile, "utf8").catch(() => "")).trim());
  if (!Number.isInteger(pid) || pid <= 0 || !isRedis(pid)) return;
  log(`stopping a redis-server left over from an earlier run (pid ${pid})`);
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 100 && isRedis(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isRedis(pid)) process.kill(pid, "SIGKILL");
}

function isRedis(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return execFileSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).includes("redis");
  } catch {
    return false;
  }
}
