import {
  createRedisClient,
  publishOn,
  type RedisClient,
  RedisPubSub,
  type RedisTarget,
} from "@breakwater/queue";
import type { Logger } from "pino";

/** Redis pub/sub channel carrying cache invalidations between replicas. */
export const INVALIDATION_CHANNEL = "bw:invalidate";

type Handler = (key: string) => void;

/**
 * Cross-replica cache invalidation over Redis pub/sub (a sharded channel on a cluster). A published
 * invalidation applies locally at once and reaches every other replica in one pub/sub hop
 * (milliseconds). When the subscription drops and comes back — reconnect, node restart, failover,
 * slot moved — every registered cache is cleared, because messages sent meanwhile are lost: that
 * keeps the "revoked everywhere within 1 s" promise across blips.
 */
export class InvalidationBus {
  private readonly handlers = new Map<string, Handler[]>();
  private started = false;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly opts: { publisher: RedisClient; pubsub: RedisPubSub; log?: Logger; owned?: boolean },
  ) {}

  /** A bus with Redis clients of its own for `target` (closed by stop()). */
  static fromTarget(target: RedisTarget, log?: Logger): InvalidationBus {
    const publisher = createRedisClient(target, "publisher", { connectionName: "breakwater-invalidation" });
    publisher.on("error", () => undefined); // surfaced through the failed publish
    return new InvalidationBus({
      publisher,
      pubsub: new RedisPubSub({ target, client: publisher, log }),
      log,
      owned: true,
    });
  }

  /** Subscribes; resolves once the subscription is active. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      this.unsubscribe = await this.opts.pubsub.subscribe(
        INVALIDATION_CHANNEL,
        (message) => {
          const sep = message.indexOf("\n");
          if (sep < 0) return;
          this.apply(message.slice(0, sep), message.slice(sep + 1));
        },
        () => this.clearAll(),
      );
    } catch (err) {
      this.started = false;
      throw err;
    }
  }

  register(cache: string, onInvalidate: Handler): void {
    const list = this.handlers.get(cache) ?? [];
    list.push(onInvalidate);
    this.handlers.set(cache, list);
  }

  /** Invalidates `key` (or "*" for everything) of `cache` here and on every replica. */
  async publish(cache: string, key: string): Promise<void> {
    this.apply(cache, key);
    await publishOn(this.opts.publisher, INVALIDATION_CHANNEL, `${cache}\n${key}`);
  }

  async stop(): Promise<void> {
    const wasStarted = this.started;
    this.started = false;
    const off = this.unsubscribe;
    this.unsubscribe = undefined;
    if (wasStarted) await off?.().catch(() => undefined);
    if (this.opts.owned) {
      await this.opts.pubsub.close();
      await this.opts.publisher.quit().catch(() => this.opts.publisher.disconnect());
    }
  }

  private apply(cache: string, key: string): void {
    for (const h of this.handlers.get(cache) ?? []) h(key);
  }

  private clearAll(): void {
    this.opts.log?.warn("invalidation subscription re-established; clearing caches");
    for (const list of this.handlers.values()) for (const h of list) h("*");
  }
}

interface Entry<V> {
  value: V;
  /** From here on a hit also reloads the entry in the background. */
  refreshAt: number;
  /** Never served at or after this. */
  expiresAt: number;
}

/** Share of the TTL after which a hit starts a background reload (refresh-ahead). */
const REFRESH_AHEAD = 0.75;
/** After a failed background reload, the next one waits this long (the old value still serves). */
const REFRESH_RETRY_MS = 1_000;

/**
 * An in-process read-through cache: a hit costs no I/O; a miss loads once even under concurrent
 * callers (single flight). Entries expire after ttlMs as a safety net; correctness relies on
 * invalidation through the bus. A key in steady use never makes a caller wait for its TTL: from
 * three quarters of the TTL on, a hit answers from memory and reloads the entry in the background
 * (one load at a time), so the entry is replaced before it expires. Only a miss, an invalidated
 * entry or one left unused past its TTL waits for a load. (Blocking reloads at expiry held every
 * request of the project behind a Postgres round trip once a minute per cache — a visible share
 * of the hot path's p99.)
 */
export class InvalidatingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  // A key's pending load. An invalidation drops it, so a load that started before an invalidation
  // of its key finds itself replaced (or gone) and does not store; other keys' loads carry on.
  private readonly inflight = new Map<string, Promise<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly opts: {
      name: string;
      ttlMs: number;
      maxEntries?: number;
      load: (key: string) => Promise<V>;
      bus?: InvalidationBus;
      now?: () => number;
      log?: Logger;
    },
  ) {
    this.ttlMs = opts.ttlMs;
    this.maxEntries = opts.maxEntries ?? 100_000;
    opts.bus?.register(opts.name, (key) => this.invalidateLocal(key));
  }

  /** Entries held (loaded values, including ones past their TTL not yet dropped). */
  get size(): number {
    return this.entries.size;
  }

  get name(): string {
    return this.opts.name;
  }

  /** The cached value, loading it on a miss or after expiry. */
  get(key: string): Promise<V> {
    const hit = this.cached(key);
    if (hit !== undefined) return Promise.resolve(hit);
    return this.inflight.get(key) ?? this.load(key);
  }

  /**
   * The hot path's synchronous read: the cached value, or undefined on a miss or expiry (then call
   * `get`). A hit past three quarters of the TTL starts the background reload, as `get` does.
   */
  cached(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    const now = this.opts.now?.() ?? Date.now();
    if (hit.expiresAt <= now) return undefined;
    if (hit.refreshAt <= now && !this.inflight.has(key)) this.refresh(key, hit, now);
    return hit.value;
  }

  private load(key: string): Promise<V> {
    const p: Promise<V> = this.opts.load(key).then(
      (value) => {
        if (this.inflight.get(key) === p) {
          this.inflight.delete(key);
          this.store(key, value);
        }
        return value;
      },
      (err: unknown) => {
        if (this.inflight.get(key) === p) this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, p);
    return p;
  }

  private refresh(key: string, hit: Entry<V>, now: number): void {
    hit.refreshAt = now + REFRESH_RETRY_MS; // until the reload replaces the entry
    this.load(key).catch((err: unknown) => {
      this.opts.log?.warn(
        { err, cache: this.opts.name },
        "background cache reload failed; serving the cached value",
      );
    });
  }

  /** The cached value without loading or reloading anything (undefined on a miss or expiry). */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > (this.opts.now?.() ?? Date.now()) ? hit.value : undefined;
  }

  /** Drops `key` ("*" = all) on every replica when a bus is attached, else locally. */
  async invalidate(key: string): Promise<void> {
    if (this.opts.bus) await this.opts.bus.publish(this.opts.name, key);
    else this.invalidateLocal(key);
  }

  invalidateLocal(key: string): void {
    if (key === "*") {
      this.entries.clear();
      this.inflight.clear();
    } else {
      this.entries.delete(key);
      this.inflight.delete(key);
    }
  }

  private store(key: string, value: V): void {
    // Re-inserted last, so the eviction order stays oldest-loaded first; and a reload of a cached
    // key never evicts another one.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const now = this.opts.now?.() ?? Date.now();
    this.entries.set(key, {
      value,
      refreshAt: now + this.ttlMs * REFRESH_AHEAD,
      expiresAt: now + this.ttlMs,
    });
  }
}
