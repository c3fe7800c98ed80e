import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports";

const exec = promisify(execFile);

/** A throwaway loopback Redis Cluster (no persistence; replicas on request) for tests and benches. */
export interface PrivateCluster {
  /** Every node's port, masters first (as `redis-cli --cluster create` assigns them). */
  ports: number[];
  /** `cluster-node-timeout` of every node (ms). */
  nodeTimeoutMs: number;
  /** `host:port,…` as REDIS_CLUSTER_NODES takes it. */
  nodes: string;
  /**
   * Kills one node (SIGKILL). A master without replicas leaves its slots unserved until restarted;
   * a master with replicas is replaced by one of them after `cluster-node-timeout` and an election.
   */
  kill(port: number): Promise<void>;
  /**
   * Freezes one node (SIGSTOP): its connections stay open and nothing answers, as when a host hangs
   * or its network drops packets. `stop` and `kill` end it as usual.
   */
  freeze(port: number): void;
  /**
   * Starts a killed node again with its cluster config: a master that was not failed over owns its
   * slots again, empty; one that was rejoins as a replica of its successor.
   */
  restart(port: number): Promise<void>;
  /** The port of the master that owns `key`'s slot (as the live nodes see it now). */
  ownerOf(key: string): Promise<number>;
  /** The ports of the live replicas of the master on `port`. */
  replicasOf(port: number): Promise<number[]>;
  /** The role the node on `port` reports (ROLE): "master" or "slave". */
  roleOf(port: number): Promise<string>;
  /** Waits until every live node reports cluster_state:ok and every live replica is in sync. */
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

/** Parsed `CLUSTER NODES` lines: id, port, flags, the master's id (replicas), slot ranges. */
function clusterNodes(text: string) {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((line) => {
      const f = line.split(" ");
      return {
        id: f[0]!,
        port: Number(f[1]!.split("@")[0]!.split(":")[1]),
        flags: f[2]!.split(","),
        masterId: f[3]!,
        slots: f.slice(8).filter((r) => !r.startsWith("[")),
      };
    });
}

/**
 * Starts redis-server processes with `--cluster-enabled yes` on free loopback ports (or `ports`):
 * `masters` masters and `replicas` replicas of each (masters first in `ports`), joins them with
 * `redis-cli --cluster create` and waits for cluster_state:ok (and every replica in sync). Slots of
 * a killed master without replicas do not take the cluster down (`cluster-require-full-coverage
 * no`), as in the deployment docs.
 */
export async function startPrivateCluster(
  opts: { masters?: number; replicas?: number; ports?: number[]; nodeTimeoutMs?: number } = {},
): Promise<PrivateCluster> {
  const replicas = opts.replicas ?? 0;
  const nodeTimeoutMs = opts.nodeTimeoutMs ?? 2_000;
  const count = opts.ports?.length ?? (opts.masters ?? 3) * (1 + replicas);
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
        String(nodeTimeoutMs),
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
        // A replica's first sync starts at once instead of waiting 5 s for other replicas.
        "--repl-diskless-sync-delay",
        "0",
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
    frozen.delete(port);
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once("exit", () => r()));
    c.kill("SIGKILL");
    await exited;
  };

  const frozen = new Set<number>();
  const live = () => ports.filter((p) => children.has(p) && !frozen.has(p));

  const waitHealthy = async (timeoutMs = 15_000) => {
    await waitFor(
      async () => {
        for (const p of live()) {
          if (!(await cli(p, "cluster", "info")).includes("cluster_state:ok")) return false;
          const replication = await cli(p, "info", "replication");
          if (replication.includes("role:slave") && !replication.includes("master_link_status:up"))
            return false;
        }
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
        String(replicas),
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
    nodeTimeoutMs,
    nodes: ports.map((p) => `127.0.0.1:${p}`).join(","),
    kill: stopNode,
    freeze: (port) => {
      frozen.add(port);
      children.get(port)?.kill("SIGSTOP");
    },
    restart: async (port) => {
      await startNode(port);
      await waitHealthy();
    },
    ownerOf: async (key) => {
      const slot = Number((await cli(live()[0] ?? ports[0]!, "cluster", "keyslot", key)).trim());
      for (const p of live()) {
        for (const n of clusterNodes(await cli(p, "cluster", "nodes"))) {
          if (!n.flags.includes("master")) continue;
          const owned = n.slots.some((r) => {
            const [a, b] = r.split("-").map(Number);
            return a !== undefined && slot >= a && slot <= (b ?? a);
          });
          if (owned) return n.port;
        }
      }
      throw new Error(`no master owns slot ${slot}`);
    },
    replicasOf: async (port) => {
      const nodes = clusterNodes(await cli(live()[0] ?? ports[0]!, "cluster", "nodes"));
      const master = nodes.find((n) => n.port === port);
      if (!master) throw new Error(`no node on port ${port}`);
      return nodes
        .filter((n) => n.masterId === master.id && !n.flags.includes("fail") && live().includes(n.port))
        .map((n) => n.port);
    },
    roleOf: async (port) => (await cli(port, "role")).split("\n")[0]!.trim(),
    waitHealthy,
    stop: async () => {
      await Promise.all([...children.keys()].map(stopNode));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
