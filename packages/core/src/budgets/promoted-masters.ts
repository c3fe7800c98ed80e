import { randomBytes } from "node:crypto";
import { createClusterNodeClient, isCluster, type RedisClient } from "@breakwater/queue";
import type { Cluster } from "ioredis";
import type { Logger } from "pino";
import { luaScript, runScript } from "./lua";

/**
 * Counters after a Redis Cluster failover. A replica is promoted with whatever replication had
 * brought it: asynchronous replication can leave out the writes the old master acknowledged in its
 * last moments (spend applied by confirms and ingests, holds). A project whose `built` marker came
 * along would go on counting from those stale counters for the rest of their windows. So every
 * marker records the node that built it (field `n`, the node's cluster id, set by the rebuild), and
 * when a slot's master changes this process sweeps the new master: each marker another node built
 * is deleted, and the project's next check rebuilds its counters from Postgres — exactly what a
 * master that came back empty gets. A marker already rebuilt on the new master is left alone, so
 * sweeps by several processes (or a repeated one) cost no second rebuild.
 *
 * Slot moves by resharding (MIGRATE loses nothing) are swept too: one rebuild per project moved,
 * the price of not telling them apart.
 */

/** Deletes the marker unless this node built it. KEYS: built. Returns 1 when deleted. */
export const SWEEP_MARKER_SCRIPT = luaScript(
  "sweep-marker",
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'n') == redis.call('CLUSTER', 'MYID') then return 0 end
redis.call('DEL', KEYS[1])
return 1
`,
);

/** Every project's built marker (`budgetKeys(p).built`). */
const MARKER_PATTERN = "bw:bud:{*}:built";
/** One sweep per new master across processes: the first to see the change takes it. */
const SWEEP_LOCK_MS = 60_000;

export interface PromotionWatch {
  /** Resolves when the sweeps started so far are done (tests). */
  idle(): Promise<void>;
  stop(): void;
}

/** `host:port` of each slot's master, as the client's slot map has it ("" when none). */
function slotMasters(cluster: Cluster): string[] {
  const out = new Array<string>(16384);
  for (let s = 0; s < 16384; s++) out[s] = cluster.slots[s]?.[0] ?? "";
  return out;
}

/**
 * Watches the cluster client's slot map (refreshed every 5 s and after every redirection) and
 * sweeps each node that took over slots from another. A standalone client has nothing to watch.
 */
export function watchPromotedMasters(redis: RedisClient, log: Logger): PromotionWatch {
  if (!isCluster(redis)) return { idle: async () => undefined, stop: () => undefined };
  const cluster = redis;
  let masters: string[] | null = cluster.status === "ready" ? slotMasters(cluster) : null;
  const running = new Set<Promise<void>>();
  let stopped = false;

  const onRefresh = () => {
    if (stopped) return;
    const now = slotMasters(cluster);
    const before = masters;
    masters = now;
    if (!before) return;
    const gained = new Set<string>();
    for (let s = 0; s < 16384; s++) if (now[s] && before[s] && now[s] !== before[s]) gained.add(now[s]!);
    for (const node of gained) {
      const p = sweepNode(cluster, node, log).then(
        () => undefined,
        (err: unknown) => log.warn({ err, node }, "sweep of a promoted master's budget markers failed"),
      );
      running.add(p);
      void p.finally(() => running.delete(p));
    }
  };
  cluster.on("refresh", onRefresh);
  return {
    idle: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    stop: () => {
      stopped = true;
      cluster.off("refresh", onRefresh);
    },
  };
}

/** Sweeps the markers on `node` (`host:port`) once across processes; resolves with how many went. */
export async function sweepNode(cluster: Cluster, node: string, log: Logger): Promise<number> {
  const token = randomBytes(8).toString("hex");
  const lock = `bw:bud:sweep:${node}`;
  if ((await cluster.set(lock, token, "PX", SWEEP_LOCK_MS, "NX")) !== "OK") return 0;
  const i = node.lastIndexOf(":");
  const conn = createClusterNodeClient(cluster, node.slice(0, i), Number(node.slice(i + 1)), {
    connectionName: "breakwater-marker-sweep",
    lazyConnect: true,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  conn.on("error", () => undefined);
  const started = Date.now();
  let seen = 0;
  let swept = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await conn.scan(cursor, "MATCH", MARKER_PATTERN, "COUNT", 1000);
      cursor = next;
      for (const key of keys) {
        seen++;
        // A key whose slot left this node meanwhile answers MOVED: its new master gets its own sweep.
        const r = await runScript(conn, SWEEP_MARKER_SCRIPT, [key], []).catch(() => 0);
        if (r === 1) swept++;
      }
    } while (cursor !== "0");
  } finally {
    conn.disconnect();
  }
  log.info(
    { node, markers: seen, swept, ms: Date.now() - started },
    "budget markers of a promoted Redis master swept: those projects rebuild their counters from Postgres",
  );
  return swept;
}
