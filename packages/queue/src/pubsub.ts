import type { Cluster, Redis } from "ioredis";
import {
  createClusterNodeClient,
  createRedisClient,
  isCluster,
  type RedisClient,
  type RedisTarget,
} from "./connection";

/** CRC16-XMODEM, the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The cluster hash slot (0–16383) of a key or sharded channel, honouring a `{hash tag}`. */
export function keySlot(key: string): number {
  const open = key.indexOf("{");
  if (open >= 0) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  return crc16(Buffer.from(key, "utf8")) % 16_384;
}

/** What the pub/sub layer logs through (a pino logger fits). */
export interface PubSubLog {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** Receives one message of a channel. */
export type MessageHandler = (message: string) => void;

/**
 * Called after the subscription of a channel was re-established (reconnect, failover, slot moved):
 * messages published meanwhile are lost, so a listener treats it as "anything may have changed".
 */
export type GapHandler = () => void;

interface Listener {
  onMessage: MessageHandler;
  onGap?: GapHandler;
}

/**
 * The name a channel has on the wire. On a cluster, channels are sharded (SPUBLISH/SSUBSCRIBE) and
 * hash-tagged, so each lives in one slot and its traffic stays on that slot's shard instead of being
 * broadcast over the cluster bus to every node. Standalone names are unchanged, so replicas of
 * different versions on one Redis keep hearing each other.
 */
export function wireChannel(channel: string, cluster: boolean): string {
  return cluster ? `{${channel}}` : channel;
}

/**
 * Publishes on `channel` through any client: SPUBLISH of the hash-tagged name on a cluster, PUBLISH
 * otherwise. For code that holds a client but no RedisPubSub (a message is the same either way).
 */
export async function publishOn(client: RedisClient, channel: string, message: string): Promise<void> {
  if (isCluster(client)) await client.spublish(wireChannel(channel, true), message);
  else await client.publish(channel, message);
}

/**
 * Cross-replica pub/sub on standalone Redis or a Redis Cluster, with one promise the callers rely
 * on: after any interruption of a subscription (connection killed, node restarted, failover, slot
 * migrated) the channel is subscribed again by itself and its listeners' `onGap` runs once the new
 * subscription is active. (ioredis's own cluster subscriber re-subscribes silently on another
 * node, so a cache fed by it could stay stale forever; here a cluster channel has a connection of
 * its own to the master owning its slot, re-resolved from the cluster's slot map on every
 * reconnect.)
 */
export class RedisPubSub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly cluster: boolean;
  private standalone: Redis | undefined;
  private standaloneReady = false;
  private readonly shards = new Map<string, ShardSubscription>();
  private closed = false;
  private readonly client: RedisClient;
  private readonly ownsClient: boolean;

  /**
   * `client` publishes (and, on a cluster, tells which node owns a channel's slot; one is made from
   * `target` when none is given); subscriptions use connections of their own made from `target`.
   */
  constructor(
    private readonly opts: {
      target: RedisTarget;
      client?: RedisClient;
      log?: PubSubLog;
      connectionName?: string;
    },
  ) {
    this.ownsClient = !opts.client;
    this.client =
      opts.client ??
      createRedisClient(opts.target, "publisher", { connectionName: "breakwater-pubsub-publisher" });
    if (this.ownsClient)
      this.client.on("error", (err) => opts.log?.debug({ err }, "pub/sub publisher Redis error"));
    this.cluster = isCluster(this.client);
  }

  /** Whether this runs on a cluster (sharded channels). */
  get sharded(): boolean {
    return this.cluster;
  }

  /** Publishes `message` on `channel` (SPUBLISH on a cluster). */
  async publish(channel: string, message: string): Promise<void> {
    await publishOn(this.client, channel, message);
  }

  /**
   * Listens on `channel`; resolves once the subscription is active. The returned function removes
   * the listener (and the subscription with the last one).
   */
  async subscribe(
    channel: string,
    onMessage: MessageHandler,
    onGap?: GapHandler,
  ): Promise<() => Promise<void>> {
    if (this.closed) throw new Error("pub/sub closed");
    const listener: Listener = { onMessage, onGap };
    let set = this.listeners.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    try {
      if (first) await this.open(channel);
      else await this.opened(channel);
    } catch (err) {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(channel);
      throw err;
    }
    return async () => {
      set.delete(listener);
      if (set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      await this.shut(channel);
    };
  }

  /** Ends every subscription. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    const shards = [...this.shards.values()];
    this.shards.clear();
    for (const s of shards) s.close();
    const s = this.standalone;
    this.standalone = undefined;
    if (s) await s.quit().catch(() => s.disconnect());
    if (this.ownsClient) await this.client.quit().catch(() => this.client.disconnect());
  }

  private deliver(channel: string, message: string): void {
    for (const l of this.listeners.get(channel) ?? []) {
      try {
        l.onMessage(message);
      } catch (err) {
        this.opts.log?.warn({ err, channel }, "pub/sub listener failed");
      }
    }
  }

  private gap(channel: string): void {
    this.opts.log?.warn({ channel }, "pub/sub subscription re-established; listeners resynchronise");
    for (const l of this.listeners.get(channel) ?? []) {
      try {
        l.onGap?.();
      } catch (err) {
        this.opts.log?.warn({ err, channel }, "pub/sub gap handler failed");
      }
    }
  }

  private async open(channel: string): Promise<void> {
    if (this.cluster) {
      const shard = new ShardSubscription(
        this.client as Cluster,
        wireChannel(channel, true),
        (m) => this.deliver(channel, m),
        () => this.gap(channel),
        this.opts.log,
        this.opts.connectionName,
      );
      this.shards.set(channel, shard);
      await shard.start();
      return;
    }
    const sub = this.standaloneConnection();
    await sub.subscribe(channel);
  }

  private async opened(channel: string): Promise<void> {
    if (this.cluster) await this.shards.get(channel)?.start();
    else await this.standaloneConnection().subscribe(channel);
  }

  private async shut(channel: string): Promise<void> {
    if (this.cluster) {
      const shard = this.shards.get(channel);
      this.shards.delete(channel);
      shard?.close();
      return;
    }
    await this.standalone?.unsubscribe(channel).catch(() => undefined);
  }

  private standaloneConnection(): Redis {
    if (this.standalone) return this.standalone;
    const sub = createRedisClient(this.opts.target, "subscriber", {
      connectionName: this.opts.connectionName ?? "breakwater-pubsub",
    }) as Redis;
    sub.on("error", (err) => this.opts.log?.debug({ err }, "pub/sub Redis error"));
    sub.on("message", (channel: string, message: string) => this.deliver(channel, message));
    // ioredis re-subscribes by itself after a reconnect; what was published meanwhile is unknown.
    // Its re-subscription is queued right behind the ready check, so it is active by the time the
    // next command's reply arrives: a PING after `ready` marks it.
    sub.on("ready", () => {
      if (!this.standaloneReady) {
        this.standaloneReady = true;
        return;
      }
      const channels = [...this.listeners.keys()];
      void sub.ping().then(
        () => {
          for (const ch of channels) this.gap(ch);
        },
        () => undefined,
      );
    });
    this.standalone = sub;
    return sub;
  }
}

/** Backoff of a cluster channel's re-subscription attempts. */
const RESUBSCRIBE_DELAYS_MS = [0, 50, 100, 200, 400, 800, 1_000];

/**
 * One sharded channel on a cluster: a connection to the master that owns the channel's slot,
 * SSUBSCRIBEd. When the connection ends, or the server unsubscribes it (its slot moved), the owner
 * is looked up again in a refreshed slot map and the channel re-subscribed there; then `onGap`.
 */
class ShardSubscription {
  private conn: Redis | undefined;
  private starting: Promise<void> | undefined;
  private active = false;
  private everActive = false;
  private closed = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly slot: number;

  constructor(
    private readonly cluster: Cluster,
    private readonly channel: string,
    private readonly onMessage: MessageHandler,
    private readonly onGap: GapHandler,
    private readonly log: PubSubLog | undefined,
    private readonly connectionName = "breakwater-pubsub",
  ) {
    this.slot = keySlot(channel);
  }

  /**
   * Resolves once subscribed, rejects when this attempt failed — and then keeps trying in the
   * background; the subscription that finally succeeds counts as a gap (listeners resynchronise).
   */
  start(): Promise<void> {
    if (this.active) return Promise.resolve();
    this.starting ??= this.connect()
      .catch((err: unknown) => {
        this.everActive = true;
        this.log?.debug({ err, channel: this.channel }, "sharded pub/sub subscription failed; retrying");
        this.retry();
        throw err;
      })
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const c = this.conn;
    this.conn = undefined;
    c?.removeAllListeners();
    c?.on("error", () => undefined);
    c?.disconnect();
  }

  private async owner(): Promise<{ host: string; port: number }> {
    if (this.cluster.status !== "ready") {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("cluster not ready")), 2_000);
        this.cluster.once("ready", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    let key = this.cluster.slots[this.slot]?.[0];
    if (!key || this.attempt > 0) {
      await new Promise<void>((resolve) => this.cluster.refreshSlotsCache(() => resolve()));
      key = this.cluster.slots[this.slot]?.[0] ?? key;
    }
    if (!key) throw new Error(`no node owns slot ${this.slot}`);
    const i = key.lastIndexOf(":");
    return { host: key.slice(0, i), port: Number(key.slice(i + 1)) };
  }

  private async connect(): Promise<void> {
    const { host, port } = await this.owner();
    const conn = createClusterNodeClient(this.cluster, host, port, {
      connectionName: this.connectionName,
      // Reconnection is ours: the slot may be on another node by then.
      retryStrategy: () => null,
      autoResubscribe: false,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      lazyConnect: true,
    });
    conn.on("error", (err) => this.log?.debug({ err, channel: this.channel }, "sharded pub/sub Redis error"));
    conn.on("smessage", (ch: string, message: string) => {
      if (ch === this.channel) this.onMessage(message);
    });
    // The server unsubscribes a sharded channel by itself when its slot moves elsewhere.
    conn.on("sunsubscribe", () => {
      if (this.conn === conn && this.active) this.lost(conn);
    });
    conn.on("end", () => {
      if (this.conn === conn) this.lost(conn);
    });
    this.conn = conn;
    try {
      await conn.connect();
      await conn.ssubscribe(this.channel);
    } catch (err) {
      if (this.conn === conn) this.conn = undefined;
      conn.removeAllListeners();
      conn.on("error", () => undefined);
      conn.disconnect();
      throw err;
    }
    if (this.closed) {
      this.close();
      return;
    }
    this.active = true;
    this.attempt = 0;
    if (this.everActive) this.onGap();
    this.everActive = true;
  }

  private lost(conn: Redis): void {
    this.active = false;
    if (this.conn === conn) this.conn = undefined;
    conn.removeAllListeners();
    conn.on("error", () => undefined);
    conn.disconnect();
    if (this.closed) return;
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.retryTimer) return;
    const delay = RESUBSCRIBE_DELAYS_MS[Math.min(this.attempt, RESUBSCRIBE_DELAYS_MS.length - 1)]!;
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.start().catch(() => undefined); // a failed attempt schedules the next one itself
    }, delay);
    this.retryTimer.unref();
  }
}
