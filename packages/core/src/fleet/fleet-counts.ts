import type { RedisClient } from "@breakwater/queue";
import { luaScript, runBudgetScript } from "../budgets/lua";
import type { Deps } from "../context";
import { fleetKeys, PARSE, SNAPSHOT_KEY_TTL_MS, snapshotField } from "./fleet-redis";

/**
 * How many instances of a project's provider are live in each state, without reading the fleet.
 *
 * A fleet of 100,000 instances on three providers holds 300,000 live snapshots plus the stale ones
 * churn leaves behind; counting them per view (and per live refetch) was the fleet pages' cost.
 * The breaker-report scripts (breaker-heartbeats.ts) keep, in the project's Redis slot, one sorted
 * set per provider and state of its instances scored by last-seen time: a heartbeat moves its
 * instance's score, a settled transition moves it between sets, a prune removes it. Live = seen
 * since the stale cutoff, so a count is a ZCOUNT and turns stale exactly when the cutoff passes.
 * The stale count is the total the database keeps per (project, provider) (statement triggers on
 * `breaker_snapshots`) minus the live ones.
 *
 * The sets are complete while the project's `built` key exists. After a Redis restart (or the first
 * read after an upgrade) it is absent: the first reader rebuilds the sets from the database's live
 * rows (one query per project), and readers meanwhile count from the database. A rebuild never
 * overrides what the scripts stored since (the snapshot hash's entry wins over the row).
 */

/** Live instances of one project's provider. */
export interface LiveCounts {
  healthy: number;
  down: number;
  recovering: number;
  /** Last-seen time of the least recently seen live instance (ms), null with none live. */
  oldestLiveMs: number | null;
  /** Newest last-seen time of any instance (ms), null when unknown. */
  lastSeenMs: number | null;
}

/**
 * KEYS: snap (for the prefix), built, last. ARGV: cutoffMs, then providers. Returns -1 when the sets
 * are not known complete (rebuild first), else per provider: healthy, down, recovering, oldest live
 * (or -1), newest last-seen (or -1).
 */
export const FLEET_COUNT_SCRIPT = luaScript(
  "fleet-count",
  `${PARSE}
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
local cutoff = ARGV[1]
local out = {}
for i = 2, #ARGV do
  local provider = ARGV[i]
  local oldest = -1
  for _, s in ipairs(STATES) do
    local k = liveKey(s, provider)
    out[#out + 1] = redis.call('ZCOUNT', k, cutoff, '+inf')
    local first = redis.call('ZRANGE', k, cutoff, '+inf', 'BYSCORE', 'LIMIT', 0, 1, 'WITHSCORES')
    if first[2] then
      local t = tonumber(first[2])
      if oldest < 0 or t < oldest then oldest = t end
    end
  end
  out[#out + 1] = oldest
  out[#out + 1] = tonumber(redis.call('HGET', KEYS[3], provider) or '-1')
end
return out
`,
);

/**
 * Rebuilds a project's live sets from the database. KEYS: snap, built, last. ARGV: ttlMs, final
 * ('1': the sets are now complete — set `built`), nLast, then nLast pairs (provider, newest
 * last-seen ms), then triples (field, state, receivedMs) of live rows. A snapshot the scripts hold
 * is placed as they hold it (it is at least as new as the row).
 */
export const FLEET_REBUILD_SCRIPT = luaScript(
  "fleet-rebuild",
  `${PARSE}
local ttl = ARGV[1]
local nLast = tonumber(ARGV[3])
for i = 4, 3 + 2 * nLast, 2 do
  local last = tonumber(redis.call('HGET', KEYS[3], ARGV[i]))
  if not last or last < tonumber(ARGV[i + 1]) then redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
end
if nLast > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
for i = 4 + 2 * nLast, #ARGV, 3 do
  local f, state, rcv = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local v = redis.call('HGET', KEYS[1], f)
  if v then
    local s, _, r = parse(v)
    state = s
    if r > rcv then rcv = r end
  end
  place(f, state, rcv, ttl)
end
if ARGV[2] == '1' then redis.call('SET', KEYS[2], '1', 'PX', ttl) end
return 1
`,
);

/**
 * Rows per rebuild script call: small enough that the reports judged meanwhile (the same Redis)
 * never wait long behind one, and that many projects rebuilt at once stay within the deadline.
 */
const REBUILD_CHUNK = 500;
/** A rebuild's script calls queue behind other projects' rebuilds: a deadline of their own. */
const REBUILD_TIMEOUT_MS = 5_000;
/** A rebuild's claim on a project lapses after this (its reader died, say). */
const REBUILD_LEASE_MS = 60_000;

const keyOf = (projectId: string, provider: string) => `${projectId}\u0000${provider}`;

/**
 * Rebuilds one process runs at once: each reads a project's live rows (15,000 at 100,000
 * instances over 20 projects) and turns them into script calls; twenty at once kept the event
 * loop busy past the Redis command deadline of everything else in flight.
 */
const MAX_REBUILDS = 2;
let rebuildsRunning = 0;
const rebuildQueue: (() => void)[] = [];

async function withRebuildSlot<T>(run: () => Promise<T>): Promise<T> {
  if (rebuildsRunning >= MAX_REBUILDS) await new Promise<void>((r) => rebuildQueue.push(r));
  rebuildsRunning++;
  try {
    return await run();
  } finally {
    rebuildsRunning--;
    rebuildQueue.shift()?.();
  }
}

/**
 * Live counts per (project, provider) for the given projects' providers, from Redis. A project
 * whose sets are not known complete is rebuilt first when this reader gets the claim; a project
 * that cannot be counted from Redis (being rebuilt by another reader, Redis unreachable) is left
 * out of the map, and the caller counts it from the database.
 */
export async function liveCounts(
  deps: Deps & { redis: RedisClient },
  providersByProject: Map<string, string[]>,
  now: Date,
): Promise<Map<string, LiveCounts>> {
  const cutoff = now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000;
  const out = new Map<string, LiveCounts>();
  await Promise.all(
    [...providersByProject].map(async ([projectId, providers]) => {
      if (providers.length === 0) return;
      try {
        let reply = await count(deps.redis, projectId, providers, cutoff);
        if (reply === null && (await withRebuildSlot(() => rebuild(deps, projectId, now)))) {
          reply = await count(deps.redis, projectId, providers, cutoff);
        }
        if (reply === null) return;
        for (const [n, provider] of providers.entries()) {
          const at = n * 5;
          const oldest = Number(reply[at + 3]);
          const last = Number(reply[at + 4]);
          out.set(keyOf(projectId, provider), {
            healthy: Number(reply[at]),
            down: Number(reply[at + 1]),
            recovering: Number(reply[at + 2]),
            oldestLiveMs: oldest < 0 ? null : oldest,
            lastSeenMs: last < 0 ? null : last,
          });
        }
      } catch (err) {
        deps.log.warn({ err, projectId }, "fleet counts unavailable from Redis; counted from the database");
      }
    }),
  );
  return out;
}

export const liveCountsKey = keyOf;

async function count(
  redis: RedisClient,
  projectId: string,
  providers: string[],
  cutoff: number,
): Promise<unknown[] | null> {
  const k = fleetKeys(projectId);
  const reply = await runBudgetScript(
    redis,
    FLEET_COUNT_SCRIPT,
    [k.snap, k.built, k.last],
    [String(cutoff), ...providers],
  );
  return Array.isArray(reply) ? reply : null;
}

/**
 * Rebuilds one project's live sets from its live rows, if no other reader is at it. True when the
 * sets are complete afterwards.
 */
export async function rebuild(
  deps: Deps & { redis: RedisClient },
  projectId: string,
  now: Date,
): Promise<boolean> {
  const k = fleetKeys(projectId);
  const claimed = await deps.redis.set(k.rebuilding, "1", "PX", REBUILD_LEASE_MS, "NX");
  if (claimed !== "OK") return false;
  try {
    const cutoff = new Date(now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000);
    const [live, last] = await Promise.all([
      deps.db.$queryRaw<{ provider: string; sdk_instance_id: string; state: string; received_at: Date }[]>`
        SELECT provider, sdk_instance_id, state::text AS state, received_at FROM breaker_snapshots
        WHERE project_id = ${projectId} AND received_at >= ${cutoff}`,
      deps.db.$queryRaw<{ provider: string; last: Date }[]>`
        SELECT provider, max(received_at) AS last FROM breaker_snapshots
        WHERE project_id = ${projectId} GROUP BY provider`,
    ]);
    const ttl = String(SNAPSHOT_KEY_TTL_MS);
    const lastArgs = last.flatMap((r) => [r.provider, String(r.last.getTime())]);
    let at = 0;
    do {
      const chunk = live.slice(at, at + REBUILD_CHUNK);
      at += REBUILD_CHUNK;
      const final = at >= live.length;
      const args = [ttl, final ? "1" : "0", String(lastArgs.length / 2), ...lastArgs];
      for (const r of chunk) {
        args.push(snapshotField(r.provider, r.sdk_instance_id), r.state, String(r.received_at.getTime()));
      }
      await runBudgetScript(
        deps.redis,
        FLEET_REBUILD_SCRIPT,
        [k.snap, k.built, k.last],
        args,
        REBUILD_TIMEOUT_MS,
      );
      lastArgs.length = 0;
    } while (at < live.length);
    return true;
  } finally {
    await deps.redis.del(k.rebuilding).catch(() => undefined);
  }
}
