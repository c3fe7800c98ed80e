import { type Command, Redis, type RedisOptions } from "ioredis";
import { DomainError } from "../errors";

/**
 * Per-command deadline of the budget client. The SDK gives a check 1 s and counts a 503 against
 * its control-plane breaker, so the deadline sits well inside that second without turning a
 * brief CPU stall into a spurious 503. (Refused connections fail at once, not after this.)
 */
export const BUDGET_REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * ioredis's `commandTimeout` with one timer per client instead of one per command (arming and
 * clearing a timer per command cost more than the rest of the bookkeeping): commands are noted in
 * the order they are sent — they share one deadline, so the oldest is always at the head — and a
 * single timer waits for the oldest unanswered command's deadline. When it fires, the overdue
 * commands are rejected with the same "Command timed out" error and the timer is set again for the
 * next unanswered one; while every command is answered in time it fires about twice a second.
 */
class CommandWatchdog {
  private commands: Command[] = [];
  private deadlines: number[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly onTimer = () => {
    this.timer = null;
    this.sweep();
  };

  constructor(private readonly timeoutMs: number) {}

  track(command: Command): void {
    this.commands.push(command);
    this.deadlines.push(Date.now() + this.timeoutMs);
    if (this.timer === null) this.arm(this.timeoutMs);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.onTimer, ms);
    this.timer.unref();
  }

  private sweep(): void {
    const now = Date.now();
    const { commands, deadlines } = this;
    let i = this.head;
    for (; i < commands.length; i++) {
      const command = commands[i]!;
      if (command.isSettled) continue;
      if (deadlines[i]! > now) break;
      command.reject(new Error("Command timed out"));
    }
    if (i === commands.length) {
      commands.length = 0;
      deadlines.length = 0;
      this.head = 0;
      return;
    }
    if (i >= 4096) {
      commands.splice(0, i);
      deadlines.splice(0, i);
      i = 0;
    }
    this.head = i;
    this.arm(Math.max(1, deadlines[i]! - now));
  }
}

// Clients whose every command is bounded by a watchdog (see createBudgetRedis).
const watched = new WeakSet<Redis>();

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
export function createBudgetRedis(url: string, opts: RedisOptions = {}): Redis {
  const { commandTimeout = BUDGET_REDIS_COMMAND_TIMEOUT_MS, enableAutoPipelining = false, ...rest } = opts;
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    ...rest,
  });
  const watchdog = commandTimeout > 0 ? new CommandWatchdog(commandTimeout) : null;
  if (watchdog) watched.add(redis);
  if (!watchdog && !enableAutoPipelining) return redis;

  let corked: Redis["stream"] | null = null;
  const uncork = () => {
    const socket = corked;
    corked = null;
    socket?.uncork();
  };
  const send = redis.sendCommand;
  // Every command passes here, pipelined ones included (their batch is written to the socket too).
  redis.sendCommand = function (this: Redis, command, stream) {
    if (enableAutoPipelining && corked === null && this.stream) {
      corked = this.stream;
      corked.cork();
      setImmediate(uncork);
    }
    const result = send.call(this, command, stream);
    if (watchdog && !command.isSettled) watchdog.track(command);
    return result;
  };
  return redis;
}

/**
 * True for a client whose every command fails fast on its own: no offline queue, and a command
 * deadline (the budget client's watchdog or ioredis's commandTimeout).
 */
export function isSelfBounded(redis: Redis): boolean {
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
  redis: Redis,
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
