import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports";

const exec = promisify(execFile);

/** A throwaway loopback Redis Cluster (no replicas, no persistence) for tests and benches. */
export interface PrivateCluster {
  ports: number[];
  /** `host:port,…` as REDIS_CLUSTER_NODES takes it. */
  nodes: string;
  /** Kills one master (SIGKILL); its slots answer CLUSTERDOWN/connection errors until restarted. */
  kill(port: number): Promise<void>;
  /** Starts a killed master again with its cluster config: it owns its slots again, empty. */
  restart(port: number): Promise<void>;
  /** The port of the master that owns `key`'s slot. */
  ownerOf(key: string): Promise<number>;
  /** Waits until every node reports cluster_state:ok. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await exec("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], {
    timeout: 10_000,
  });
  return stdout;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts `masters` redis-server processes with `--cluster-enabled yes` on free loopback ports (or
 * `ports`), joins them with `redis-cli --cluster create` and waits for cluster_state:ok. Slots of a
 * killed master do not take the cluster down (`cluster-require-full-coverage no`), as in the
 * deployment docs.
 */
export async function startPrivateCluster(
  opts: { masters?: number; ports?: number[] } = {},
): Promise<PrivateCluster> {
  const count = opts.ports?.length ?? opts.masters ?? 3;
  const ports: number[] = [];
  if (opts.ports) ports.push(...opts.ports);
  else {
    while (ports.length < count) {
      const p = await freePort(7200, 7399);
      if (!ports.includes(p)) ports.push(p);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "bw-cluster-"));
  const children = new Map<number, ChildProcess>();

  const startNode = async (port: number) => {
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        join(dir, `nodes-${port}.conf`),
        "--cluster-node-timeout",
        "2000",
        "--cluster-require-full-coverage",
        "no",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--maxmemory-policy",
        "noeviction",
      ],
      { stdio: "ignore" },
    );
    children.set(port, child);
    await waitFor(
      async () => (await cli(port, "ping")).trim() === "PONG",
      5_000,
      `redis-server on ${port} did not start`,
    );
    if (child.exitCode !== null) throw new Error(`redis-server could not use port ${port}`);
  };

  const stopNode = async (port: number) => {
    const c = children.get(port);
    children.delete(port);
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once("exit", () => r()));
    c.kill("SIGKILL");
    await exited;
  };

  const waitHealthy = async (timeoutMs = 15_000) => {
    await waitFor(
      async () => {
        for (const p of ports)
          if (!(await cli(p, "cluster", "info")).includes("cluster_state:ok")) return false;
        return true;
      },
      timeoutMs,
      "cluster did not become healthy",
    );
  };

  try {
    await Promise.all(ports.map(startNode));
    await exec(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...ports.map((p) => `127.0.0.1:${p}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ],
      { timeout: 30_000 },
    );
    await waitHealthy();
  } catch (err) {
    await Promise.all(ports.map(stopNode));
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    ports,
    nodes: ports.map((p) => `127.0.0.1:${p}`).join(","),
    kill: stopNode,
    restart: async (port) => {
      await startNode(port);
      await waitHealthy();
    },
    ownerOf: async (key) => {
      const slot = Number(
        (await cli(ports.find((p) => children.has(p)) ?? ports[0]!, "cluster", "keyslot", key)).trim(),
      );
      for (const p of ports) {
        if (!children.has(p)) continue;
        const lines = (await cli(p, "cluster", "nodes")).split("\n");
        for (const line of lines) {
          const f = line.split(" ");
          if (!f[2]?.includes("master")) continue;
          const owned = f.slice(8).some((r) => {
            const [a, b] = r.split("-").map(Number);
            return a !== undefined && slot >= a && slot <= (b ?? a);
          });
          if (owned) return Number(f[1]!.split("@")[0]!.split(":")[1]);
        }
      }
      throw new Error(`no master owns slot ${slot}`);
    },
    waitHealthy,
    stop: async () => {
      await Promise.all([...children.keys()].map(stopNode));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
