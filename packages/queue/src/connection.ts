import type { Config } from "@breakwater/config";
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from "ioredis";

/**
 * The one place Breakwater makes Redis clients. Every process and package takes its clients from
 * `createRedisClient`, which answers a standalone client for REDIS_URL or, when REDIS_CLUSTER_NODES
 * is set, an ioredis `Cluster` seeded with those nodes (REDIS_URL's credentials and TLS applying to
 * each). Code that needs to know which it got asks `isCluster`.
 */
export type RedisClient = Redis | Cluster;

/** What a Redis client is made from: the two settings of packages/config. */
export type RedisTarget = Pick<Config, "REDIS_URL"> & Partial<Pick<Config, "REDIS_CLUSTER_NODES">>;

/**
 * How a connection is used, which decides its failure behaviour:
 * - `worker`: BullMQ workers and their queues. `maxRetriesPerRequest: null` is required by
 *   BullMQ's blocking commands, and the offline queue stays on so commands issued during a
 *   reconnect wait for Redis instead of failing — a worker has nobody waiting on it.
 * - `producer`: request-path code that enqueues (the SDK API, the dashboard). The offline queue
 *   is off and each command gets one retry, so an enqueue fails fast while Redis is down instead
 *   of holding an HTTP request; the Postgres outbox makes that loss harmless.
 * - `publisher`: cache invalidations and change announcements from processes that carry no other
 *   client (dashboard, CLI): one retry, commands issued while connecting wait for the connection.
 * - `rate-limit`: counters on a request path: a command waits at most a second for a
 *   (re)connecting Redis and is retried once, then the caller falls back to memory.
 * - `subscriber`: a connection dedicated to pub/sub (see RedisPubSub), reconnecting forever.
 * - `budget`: the hot path's base options; `createBudgetRedis` adds its deadline watchdog.
 */
export type RedisRole = "worker" | "producer" | "publisher" | "rate-limit" | "subscriber" | "budget";

const ROLE_OPTIONS: Record<RedisRole, RedisOptions> = {
  worker: { maxRetriesPerRequest: null, enableOfflineQueue: true },
  producer: { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 },
  publisher: { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2_000 },
  "rate-limit": {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
  },
  subscriber: { maxRetriesPerRequest: null, enableOfflineQueue: true },
  budget: { maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1_000 },
};

/** Reconnect forever with a capped backoff: Redis restarts are survivable events, not fatal. */
const retryStrategy = (times: number) => Math.min(200 * times, 2_000);
const budgetRetryStrategy = (times: number) => Math.min(50 * times, 1_000);

/**
 * Node options every cluster connection inherits from REDIS_URL: credentials and TLS. (The path's
 * database number does not apply: a cluster serves database 0 only.)
 */
function nodeOptionsFromUrl(url: string): RedisOptions {
  const u = new URL(url);
  const opts: RedisOptions = {};
  if (u.username) opts.username = decodeURIComponent(u.username);
  if (u.password) opts.password = decodeURIComponent(u.password);
  if (u.protocol === "rediss:") opts.tls = {};
  return opts;
}

export interface CreateRedisOptions {
  connectionName?: string;
  /** Overrides of the role's options (applied to every node of a cluster). */
  options?: RedisOptions;
  /** Cluster-level overrides (cluster mode only). */
  clusterOptions?: ClusterOptions;
}

/** True when the client is an ioredis Cluster. */
export function isCluster(client: RedisClient): client is Cluster {
  return (client as Cluster).isCluster === true;
}

/** True when the target names a cluster (REDIS_CLUSTER_NODES set). */
export function targetsCluster(target: RedisTarget): boolean {
  return (target.REDIS_CLUSTER_NODES?.length ?? 0) > 0;
}

/**
 * A Redis client for `target` tuned for `role` (see RedisRole): a standalone client for REDIS_URL,
 * or a Cluster over REDIS_CLUSTER_NODES. Cluster commands go to the master of their key's slot
 * (`scaleReads: "master"`, so a read never sees a replica lagging behind a write); MOVED and ASK
 * redirections are followed; a slot whose master is down fails its commands at once when the role
 * has no offline queue, while every other slot keeps serving.
 */
export function createRedisClient(
  target: RedisTarget,
  role: RedisRole,
  opts: CreateRedisOptions = {},
): RedisClient {
  const connectionName = opts.connectionName ?? `breakwater-${role}`;
  const base: RedisOptions = {
    ...ROLE_OPTIONS[role],
    connectionName,
    retryStrategy: role === "budget" ? budgetRetryStrategy : retryStrategy,
    ...opts.options,
  };
  const nodes = target.REDIS_CLUSTER_NODES;
  if (!nodes || nodes.length === 0) return new Redis(target.REDIS_URL, base);

  const { enableOfflineQueue, maxRetriesPerRequest: _perNode, ...nodeBase } = base;
  return new Cluster(nodes, {
    scaleReads: "master",
    enableOfflineQueue,
    enableReadyCheck: true,
    // A cluster's redirections and retries are bounded by its callers' deadlines; these keep a
    // failover from turning into a long retry loop on the request path.
    maxRedirections: 6,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    // A refresh asks one node after another (in random order) for the slot map; a node that hung
    // would hold every refresh for this long before the next is asked, and so delay finding the
    // replica that took over its slots. A healthy node answers CLUSTER SLOTS in well under this.
    slotsRefreshTimeout: 300,
    slotsRefreshInterval: 5_000,
    clusterRetryStrategy: base.retryStrategy ?? retryStrategy,
    redisOptions: {
      ...nodeOptionsFromUrl(target.REDIS_URL),
      ...nodeBase,
      maxRetriesPerRequest: base.maxRetriesPerRequest,
    },
    ...opts.clusterOptions,
  });
}

/**
 * A connection to one node of `cluster` (host and port from its slot map), with the node options
 * the cluster's own connections have — credentials and TLS included. For what must be pinned to
 * the node owning a slot, such as a sharded subscription (SSUBSCRIBE is served by that node only).
 */
export function createClusterNodeClient(
  cluster: Cluster,
  host: string,
  port: number,
  options: RedisOptions = {},
): Redis {
  return new Redis({ ...(cluster.options.redisOptions ?? {}), ...options, host, port });
}

/**
 * Creates an ioredis connection for the target tuned for its role (see RedisRole). Kept for the
 * queue code's callers: the same as createRedisClient.
 */
export function createRedis(
  target: RedisTarget,
  role: RedisRole,
  connectionName = `breakwater-${role}`,
): RedisClient {
  return createRedisClient(target, role, { connectionName });
}

/** Least time between two slot-map refreshes asked for by `suspectSlotMap` on one client. */
export const SLOT_REFRESH_MIN_INTERVAL_MS = 200;
const lastSuspected = new WeakMap<Cluster, number>();

/**
 * Tells a cluster client that a command went unanswered, so its slot map may be stale: refreshes
 * it now (at most every SLOT_REFRESH_MIN_INTERVAL_MS; ioredis runs one refresh at a time). A
 * master that dies closes its connections and ioredis looks again by itself; one that hangs — a
 * frozen host, a network dropping packets — only times commands out, and without this its slots
 * would stay routed to it until the periodic refresh (`slotsRefreshInterval`), seconds after a
 * replica took them over. No-op on a standalone client.
 */
export function suspectSlotMap(client: RedisClient): void {
  if (!isCluster(client)) return;
  const now = performance.now();
  if (now - (lastSuspected.get(client) ?? Number.NEGATIVE_INFINITY) < SLOT_REFRESH_MIN_INTERVAL_MS) return;
  lastSuspected.set(client, now);
  client.refreshSlotsCache();
}

/** The masters of a cluster (connected), or the client itself when standalone. */
export function masterNodes(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes("master") : [client];
}

/**
 * Every key matching `pattern` on every master (a SCAN on one cluster connection would see one
 * node). For tests, benches and maintenance, never a request path.
 */
export async function scanKeys(client: RedisClient, pattern: string, count = 1_000): Promise<string[]> {
  await whenReady(client, 5_000); // a cluster knows its masters once its slot map is loaded
  const keys: string[] = [];
  for (const node of masterNodes(client)) {
    let cursor = "0";
    do {
      const [next, batch] = await node.scan(cursor, "MATCH", pattern, "COUNT", count);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
  }
  return keys;
}

/** Resolves once the client is ready (a cluster: its slot map loaded), or after `ms`. */
export function whenReady(client: RedisClient, ms: number): Promise<boolean> {
  if (client.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off("ready", onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    timer.unref?.();
    client.once("ready", onReady);
  });
}

/** Quits a connection, falling back to disconnect when Redis does not answer within `timeoutMs`. */
export async function closeRedis(redis: RedisClient, timeoutMs = 1_000): Promise<void> {
  if (redis.status === "end") return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.quit(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("quit timed out")), timeoutMs);
      }),
    ]);
  } catch {
    redis.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
