import {
  createRedisClient,
  isCluster,
  type RedisClient,
  type RedisTarget,
  suspectSlotMap,
  whenReady,
} from "@breakwater/queue";
import type { Command, Redis, RedisOptions } from "ioredis";
import { DomainError } from "../errors";

/**
 * Per-command deadline of the budget client. The SDK gives a check 1 s and counts a 503 against
 * its control-plane breaker, so the deadline sits well inside that second without turning a
 * brief CPU stall into a spurious 503. (Refused connections fail at once, not after this.)
 */
export const BUDGET_REDIS_COMMAND_TIMEOUT_MS = 500;

/** Where a tracked command keeps its deadline (ms since the epoch). */
const DEADLINE = Symbol("budgetCommandDeadline");
type TrackedCommand = Command & { [DEADLINE]?: number };

/**
 * ioredis's `commandTimeout` with one timer per client instead of one per command (arming and
 * clearing a timer per command cost more than the rest of the bookkeeping). A sent command notes
 * its deadline on itself; the client's own queue of sent, unanswered commands (`commandQueue`,
 * answered strictly in order) is the only list of them, so nothing keeps an answered command —
 * its arguments, reply and promise — alive past its answer. (A list of our own held every command
 * of the last half second: at 2,000 checks/s that was thousands of live objects for each young-
 * generation GC to copy, 5–9 ms scavenges and a heap of 165 MB in the bench.) A single timer waits
 * for the oldest unanswered command's deadline; when it fires, the overdue commands are rejected
 * with the same "Command timed out" error and it is set again for the next unanswered one. While
 * every command is answered in time it fires about twice a second.
 *
 * A rejected command stays in the queue until its late reply arrives (replies are matched by
 * position), so against a hung server the queue keeps growing. Deadlines are stamped in send order
 * on a monotonic clock, so they never decrease along the queue: a sweep binary-searches the first
 * command not yet due and rejects backwards from there until it meets one an earlier sweep already
 * settled — each sweep costs O(log n + newly due), not a walk over every command of the hang.
 */
class CommandWatchdog {
  private timer: NodeJS.Timeout | null = null;
  private readonly onTimer = () => {
    this.timer = null;
    this.sweep();
  };

  constructor(
    private readonly redis: Redis,
    private readonly timeoutMs: number,
    /** Called after a sweep rejected commands (a cluster node that stopped answering). */
    private readonly onTimeout?: () => void,
  ) {}

  track(command: TrackedCommand): void {
    command[DEADLINE] = performance.now() + this.timeoutMs;
    if (this.timer === null) this.arm(this.timeoutMs);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.onTimer, ms);
    this.timer.unref();
  }

  private sweep(): void {
    const now = performance.now();
    const queue = this.redis.commandQueue;
    // Untracked entries (none are expected) count as due and are left alone.
    const deadlineAt = (i: number) =>
      (queue.peekAt(i)?.command as TrackedCommand | undefined)?.[DEADLINE] ?? -1;
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (deadlineAt(mid) <= now) lo = mid + 1;
      else hi = mid;
    }
    let rejected = false;
    for (let i = lo - 1; i >= 0; i--) {
      const command = queue.peekAt(i)?.command as TrackedCommand | undefined;
      if (command === undefined || command[DEADLINE] === undefined) continue;
      if (command.isSettled) break; // this one and everything before it were handled already
      command.reject(new Error("Command timed out"));
      rejected = true;
    }
    if (lo < queue.length) this.arm(Math.max(1, deadlineAt(lo) - now));
    if (rejected) this.onTimeout?.();
  }
}

// Clients whose every command is bounded by a watchdog (see createBudgetRedis).
const watched = new WeakSet<RedisClient>();

/**
 * A Redis client for the budget hot path: no offline queue and no per-request retries, so while
 * Redis is down commands fail at once instead of piling up; a command deadline (`commandTimeout`,
 * default 500 ms, enforced by a watchdog) bounds a hung server. Reconnects in the background.
 * Wait for `ready` at boot before serving checks.
 *
 * `enableAutoPipelining: true` batches writes per event-loop turn: the first command of a turn
 * corks the socket and a setImmediate uncorks it, so every command issued meanwhile — by any
 * request — leaves in one write, as ioredis's own auto-pipelining promises, but without its
 * per-batch Pipeline object, extra promise and nextTick per command (about 14 µs of Node CPU per
 * budget check under load). Replies are matched to commands exactly as for unbatched commands.
 */
export function createBudgetRedis(target: RedisTarget | string, opts: RedisOptions = {}): RedisClient {
  const { commandTimeout = BUDGET_REDIS_COMMAND_TIMEOUT_MS, enableAutoPipelining = false, ...rest } = opts;
  const t: RedisTarget = typeof target === "string" ? { REDIS_URL: target } : target;
  const client = createRedisClient(t, "budget", {
    connectionName: "breakwater-budget",
    options: {
      ...rest,
      // Not overridable: the deadline watchdog sees only commands written to the socket; a queued
      // or retried command would sit outside it.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    },
  });
  if (!isCluster(client)) {
    fastPath(client, commandTimeout, enableAutoPipelining);
    if (commandTimeout > 0) watched.add(client);
    return client;
  }
  // A cluster routes each command to its slot's master, one ioredis connection per node: the corked
  // writes and the deadline watchdog work per node connection, as on a standalone client. The
  // cluster itself is not marked self-bounded: its own waits (a redirection, TRYAGAIN,
  // CLUSTERDOWN) happen between node sends, so callers keep a deadline of their own (withRedis).
  // A node whose commands time out may have hung while a replica took its slots over: the slot
  // map is refreshed then (suspectSlotMap), not only every 5 s.
  const refreshOnTimeout = () => suspectSlotMap(client);
  const patch = (node: Redis) => fastPath(node, commandTimeout, enableAutoPipelining, refreshOnTimeout);
  client.on("+node", patch);
  for (const node of client.nodes("all")) patch(node);
  return client;
}

const patched = new WeakSet<Redis>();
// Each corking connection's "write what is corked now" (see writeCorkedNow).
const uncorkers = new WeakMap<Redis, () => void>();

// Each corking connection's "cork until writeCorkedNow" (see corkUntilWritten).
const corkers = new WeakMap<Redis, () => void>();

/**
 * Corks a standalone client's connection until the next writeCorkedNow, without the setImmediate
 * its first command would arm: for a batcher that writes its commands itself right after issuing
 * them (the check's flush). A cluster's node connections cork as usual.
 */
export function corkUntilWritten(redis: RedisClient): void {
  if (!isCluster(redis)) corkers.get(redis)?.();
}

/**
 * Writes what `redis`'s corked connections hold now instead of at their setImmediate. For a batcher
 * that itself runs from a setImmediate (the check's CHECK_MANY flush): a command first issued in the
 * check phase corks the socket and its uncork, queued from that phase, would wait a whole turn of
 * the event loop — a poll phase's worth of other requests — before the batch leaves.
 */
export function writeCorkedNow(redis: RedisClient): void {
  if (!isCluster(redis)) {
    uncorkers.get(redis)?.();
    return;
  }
  for (const node of redis.nodes("master")) uncorkers.get(node)?.();
}

/** Puts the corked writes and the deadline watchdog on one connection (once). */
function fastPath(
  redis: Redis,
  commandTimeout: number,
  enableAutoPipelining: boolean,
  onTimeout?: () => void,
): void {
  if (patched.has(redis)) return;
  patched.add(redis);
  const watchdog = commandTimeout > 0 ? new CommandWatchdog(redis, commandTimeout, onTimeout) : null;
  if (!watchdog && !enableAutoPipelining) return;

  let corked: Redis["stream"] | null = null;
  let pending: NodeJS.Immediate | null = null;
  const uncork = () => {
    pending = null;
    const socket = corked;
    corked = null;
    socket?.uncork();
  };
  // Written now (writeCorkedNow): the setImmediate would find nothing to do, yet while it waits
  // the event loop polls without blocking and turns once more for it.
  const uncorkNow = () => {
    if (pending !== null) clearImmediate(pending);
    uncork();
  };
  // Corks the connection unless it is corked already; true when this call corked it.
  const cork = (): boolean => {
    if (corked !== null || !redis.stream) return false;
    corked = redis.stream;
    corked.cork();
    return true;
  };
  if (enableAutoPipelining) {
    uncorkers.set(redis, uncorkNow);
    corkers.set(redis, cork);
  }
  const send = redis.sendCommand;
  // Every command passes here, pipelined ones included (their batch is written to the socket too).
  redis.sendCommand = function (this: Redis, command, stream) {
    if (enableAutoPipelining && cork()) pending = setImmediate(uncork);
    const result = send.call(this, command, stream);
    if (watchdog && !command.isSettled) watchdog.track(command);
    return result;
  };
}

/**
 * True for a client whose every command fails fast on its own: no offline queue, and a command
 * deadline (the budget client's watchdog or ioredis's commandTimeout).
 */
export function isSelfBounded(redis: RedisClient): boolean {
  if (isCluster(redis)) return false;
  return (
    redis.options.enableOfflineQueue === false &&
    (watched.has(redis) || (redis.options.commandTimeout ?? 0) > 0)
  );
}

/** A Redis failure as the budget engine reports it (domain errors pass through). */
export function asBudgetUnavailable(err: unknown): DomainError {
  return err instanceof DomainError ? err : budgetUnavailable(err);
}

/** The domain error every budget operation raises when Redis cannot answer. */
export function budgetUnavailable(cause?: unknown): DomainError {
  const err = new DomainError("BUDGET_UNAVAILABLE", "Budget backend temporarily unavailable; retry");
  if (cause !== undefined) (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/**
 * Runs Redis work with a deadline and maps any Redis failure to BUDGET_UNAVAILABLE. A client that
 * queues offline or has no command deadline of its own gets a timer, so even a misconfigured client
 * cannot make a check hang past `timeoutMs`.
 */
export async function withRedis<T>(
  redis: RedisClient,
  work: () => Promise<T>,
  timeoutMs = BUDGET_REDIS_COMMAND_TIMEOUT_MS,
): Promise<T> {
  if (redis.status === "end" || redis.status === "close") throw budgetUnavailable();
  try {
    if (isSelfBounded(redis)) return await work();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(budgetUnavailable(new Error("budget Redis deadline"))), timeoutMs);
    });
    try {
      return await Promise.race([work(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    throw asBudgetUnavailable(err);
  }
}

const globalForBudgetRedis = globalThis as unknown as {
  __breakwaterSharedBudgetRedis?: Map<string, RedisClient>;
};

/**
 * A fail-fast budget Redis client per target, shared by the process, for processes whose deps carry
 * none (the dashboard reads leases and fleet counts with it). Waits (bounded) for a fresh client's
 * connection: its commands fail fast until then.
 */
export async function sharedBudgetRedis(target: RedisTarget): Promise<RedisClient> {
  globalForBudgetRedis.__breakwaterSharedBudgetRedis ??= new Map();
  const id = JSON.stringify([target.REDIS_URL, target.REDIS_CLUSTER_NODES ?? null]);
  let client = globalForBudgetRedis.__breakwaterSharedBudgetRedis.get(id);
  if (!client) {
    client = createBudgetRedis(target);
    client.on("error", () => {}); // reconnects by itself; reads answer BUDGET_UNAVAILABLE meanwhile
    globalForBudgetRedis.__breakwaterSharedBudgetRedis.set(id, client);
  }
  await whenReady(client, 1_000);
  return client;
}
