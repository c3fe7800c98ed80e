import type { RedisClient } from "@breakwater/queue";
import { luaScript, runBudgetScript } from "../budgets/lua";
import type { CircuitState } from "./breaker-state";

/**
 * What Redis holds of a project's breaker snapshots, and the scripts every writer of snapshots
 * shares: the SDK API's intake judges reports against the snapshot hash (breaker-heartbeats.ts),
 * every committed change of a snapshot is settled here (record-breaker-report.ts), a prune
 * forgets, and the fleet pages count the live sets (fleet-counts.ts).
 */

/** A project's snapshot hash outlives its last report by this long (then it is rebuilt on demand). */
export const SNAPSHOT_KEY_TTL_MS = 86_400_000;

/**
 * The Redis keys of a project's breaker snapshots; `{projectId}` is the budget keys' hash tag.
 * Beside the snapshot hash the scripts keep what the fleet pages count (fleet-counts.ts):
 * `live:<state>:<provider>`, a sorted set of the provider's instances in that state scored by their
 * last-seen time; `last`, the newest last-seen time per provider; and `built`, present while those
 * sets are known to hold every live instance (absent after a Redis restart until rebuilt).
 */
export function fleetKeys(projectId: string): {
  snap: string;
  busy: string;
  built: string;
  last: string;
  rebuilding: string;
  live: (state: CircuitState, provider: string) => string;
} {
  const p = `bw:fleet:{${projectId}}:`;
  return {
    snap: `${p}snap`,
    busy: `${p}busy`,
    built: `${p}built`,
    last: `${p}last`,
    rebuilding: `${p}rebuilding`,
    live: (state, provider) => `${p}live:${state}:${provider}`,
  };
}

/** A snapshot's field: the provider's length first, so no provider and instance pair is ambiguous. */
export function snapshotField(provider: string, sdkInstanceId: string): string {
  return `${provider.length}:${provider}${sdkInstanceId}`;
}

// Stored value: "state|reportedAtMs|receivedAtMs". Busy mark: "count|sinceMs". The live sets'
// keys are derived from the snapshot hash's key (same prefix, so the same slot).
export const PARSE = `
local function parse(v)
  local a = string.find(v, '|', 1, true)
  local b = string.find(v, '|', a + 1, true)
  return string.sub(v, 1, a - 1), tonumber(string.sub(v, a + 1, b - 1)), tonumber(string.sub(v, b + 1))
end
local prefix = string.sub(KEYS[1], 1, -5)
local STATES = { 'closed', 'open', 'half_open' }
local function providerOf(f)
  local c = string.find(f, ':', 1, true)
  return string.sub(f, c + 1, c + tonumber(string.sub(f, 1, c - 1)))
end
local function liveKey(state, provider) return prefix .. 'live:' .. state .. ':' .. provider end
-- The instance counted in \`state\` as last seen at \`rcv\`, and in no other state's set.
local function place(f, state, rcv, ttl)
  local provider = providerOf(f)
  for _, s in ipairs(STATES) do
    local k = liveKey(s, provider)
    if s == state then
      redis.call('ZADD', k, rcv, f)
      redis.call('PEXPIRE', k, ttl)
    else
      redis.call('ZREM', k, f)
    end
  end
  local last = tonumber(redis.call('HGET', prefix .. 'last', provider))
  if not last or last < rcv then redis.call('HSET', prefix .. 'last', provider, rcv) end
  redis.call('PEXPIRE', prefix .. 'last', ttl)
  redis.call('PEXPIRE', prefix .. 'built', ttl)
end
`;

/**
 * Stores committed snapshots. KEYS: snap. ARGV: keyTtlMs, then per snapshot: field, state,
 * reportedAtMs, receivedAtMs. An entry holding a newer report stays; one holding the same report
 * keeps the later last-seen time (a heartbeat's may not be flushed yet).
 */
export const BREAKER_SETTLE_SCRIPT = luaScript(
  "breaker-settle",
  `${PARSE}
local ttl = ARGV[1]
local n = 0
for i = 2, #ARGV, 4 do
  local f, st, r, rcv = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  local v = redis.call('HGET', KEYS[1], f)
  local skip = false
  if v then
    local _, at, seen = parse(v)
    if at > r then skip = true
    elseif at == r and seen > rcv then rcv = seen end
  end
  if not skip then
    redis.call('HSET', KEYS[1], f, st .. '|' .. ARGV[i + 2] .. '|' .. string.format('%.0f', rcv))
    place(f, st, rcv, ttl)
    n = n + 1
  end
end
if n > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return n
`,
);

/** Lifts one busy mark per field (a slow report is done). KEYS: busy. ARGV: fields. */
export const BREAKER_LIFT_SCRIPT = luaScript(
  "breaker-lift",
  `
for _, f in ipairs(ARGV) do
  local busy = redis.call('HGET', KEYS[1], f)
  if busy then
    local sep = string.find(busy, '|', 1, true)
    local n = tonumber(string.sub(busy, 1, sep - 1)) - 1
    if n <= 0 then redis.call('HDEL', KEYS[1], f)
    else redis.call('HSET', KEYS[1], f, n .. '|' .. string.sub(busy, sep + 1)) end
  end
end
return 1
`,
);

/** A snapshot as Postgres committed it. */
export interface SettledSnapshot {
  projectId: string;
  provider: string;
  sdkInstanceId: string;
  state: CircuitState;
  reportedAt: Date;
  receivedAt: Date;
}

/**
 * Stores committed snapshots in Redis (one script call per project), so the intake judges the
 * next reports against them and the fleet pages count them. Best effort: a snapshot Redis missed
 * sends its instance's next report the slow way, which settles it again.
 */
export async function settleSnapshots(
  redis: RedisClient,
  snapshots: readonly SettledSnapshot[],
): Promise<void> {
  const byProject = new Map<string, string[]>();
  for (const s of snapshots) {
    let args = byProject.get(s.projectId);
    if (!args) {
      args = [String(SNAPSHOT_KEY_TTL_MS)];
      byProject.set(s.projectId, args);
    }
    args.push(
      snapshotField(s.provider, s.sdkInstanceId),
      s.state,
      String(s.reportedAt.getTime()),
      String(s.receivedAt.getTime()),
    );
  }
  await Promise.all(
    [...byProject].map(([projectId, args]) =>
      runBudgetScript(redis, BREAKER_SETTLE_SCRIPT, [fleetKeys(projectId).snap], args),
    ),
  );
}

/** Forgets snapshots (pruned rows): KEYS: snap, busy. ARGV: fields. */
export const BREAKER_FORGET_SCRIPT = luaScript(
  "breaker-forget",
  `${PARSE}
redis.call('HDEL', KEYS[1], unpack(ARGV))
redis.call('HDEL', KEYS[2], unpack(ARGV))
for _, f in ipairs(ARGV) do
  local provider = providerOf(f)
  for _, s in ipairs(STATES) do redis.call('ZREM', liveKey(s, provider), f) end
end
return 1
`,
);
