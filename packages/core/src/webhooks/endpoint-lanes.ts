import type { Config } from "@breakwater/config";

/**
 * Per-endpoint lanes for the built-in sender, so one tenant's slow or failing receiver cannot
 * hold every delivery slot of a worker (each attempt may wait up to 15 s for an answer).
 *
 * - A healthy endpoint runs up to `perEndpoint` attempts at once.
 * - An endpoint is *struggling* while its last attempt failed or was slow, or while one of its
 *   attempts has been running longer than `slowAfterMs`. A struggling endpoint gets one lane, and
 *   all struggling endpoints together at most `slowSlots` running attempts.
 * - A delivery that finds no free lane on a healthy endpoint waits in its line (`acquire`): under
 *   a backlog lanes free every few milliseconds, and putting the delivery back would cost a queue
 *   round trip and a re-claim each time. The line is bounded (`maxWaiting` per endpoint) so one
 *   busy endpoint never holds every slot of the process, and it is emptied as soon as the endpoint
 *   starts struggling (or after `waitMs`).
 * - A delivery that finds no lane and no room in the line, or whose endpoint is struggling, is not
 *   attempted: it is put back (no attempt spent, no slot held) to be picked up again a moment
 *   later, while other endpoints' deliveries keep flowing.
 * - Urgent messages (provider incidents, budget alerts) may run `urgentExtra` attempts past a
 *   healthy endpoint's limit and are first in its wait line: a backlog of per-instance events
 *   never holds them back.
 *
 * State is per process: each worker replica bounds its own slots.
 */
export interface EndpointLaneOptions {
  /** Attempts one healthy endpoint may run at once in this process. */
  perEndpoint: number;
  /** Running attempts all struggling endpoints together may hold in this process. */
  slowSlots: number;
  /** An attempt running (or taking) longer than this marks its endpoint as struggling. */
  slowAfterMs?: number;
  /** How long `acquire` waits at most for a healthy endpoint's lane (default 5 s). */
  waitMs?: number;
  /** Deliveries that may wait in one endpoint's line (default: none — every miss is put back). */
  maxWaiting?: number;
  /** Attempts urgent messages may run past a healthy endpoint's limit (default 4). */
  urgentExtra?: number;
  now?: () => number;
}

export interface LaneLease {
  release(outcome: { success: boolean; latencyMs: number }): void;
}

interface Waiter {
  urgent: boolean;
  until: number;
  grant: (lease: LaneLease | null) => void;
}

interface Lane {
  /** Start times of this endpoint's running attempts. */
  running: number[];
  /** The last attempt failed or was slow; cleared by a quick success. */
  failing: boolean;
}

const MAX_TRACKED = 10_000;

/** Attempts to one healthy endpoint a worker process runs at once (WEBHOOK_ENDPOINT_CONCURRENCY). */
export function webhookEndpointConcurrency(
  config: Pick<Config, "WEBHOOK_CONCURRENCY" | "WEBHOOK_ENDPOINT_CONCURRENCY">,
): number {
  return (
    config.WEBHOOK_ENDPOINT_CONCURRENCY ??
    Math.min(32, Math.max(1, Math.floor(config.WEBHOOK_CONCURRENCY / 2)))
  );
}

export class EndpointLanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly perEndpoint: number;
  private readonly slowSlots: number;
  private readonly slowAfterMs: number;
  private readonly waitMs: number;
  private readonly maxWaiting: number;
  private readonly urgentExtra: number;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly waiters = new Map<string, Waiter[]>();

  constructor(opts: EndpointLaneOptions) {
    this.perEndpoint = Math.max(1, opts.perEndpoint);
    this.slowSlots = Math.max(1, opts.slowSlots);
    this.slowAfterMs = opts.slowAfterMs ?? 1_000;
    this.waitMs = opts.waitMs ?? 5_000;
    this.maxWaiting = Math.max(0, opts.maxWaiting ?? 0);
    this.urgentExtra = opts.urgentExtra ?? 4;
    this.now = opts.now ?? Date.now;
  }

  /**
   * A lane for one attempt, waiting in the endpoint's line while it is healthy and at its limit
   * (urgent waiters first); null when the line is full, the endpoint struggles, or `waitMs` passed.
   */
  async acquire(endpointId: string, opts: { urgent?: boolean } = {}): Promise<LaneLease | null> {
    const lease = this.tryAcquire(endpointId, opts);
    if (lease) return lease;
    const list = this.waiters.get(endpointId) ?? [];
    if (this.isStruggling(endpointId) || (list.length >= this.maxWaiting && !opts.urgent)) return null;
    return new Promise<LaneLease | null>((resolve) => {
      this.waiters.set(endpointId, list);
      const waiter: Waiter = {
        urgent: Boolean(opts.urgent),
        until: this.now() + this.waitMs,
        grant: resolve,
      };
      // Urgent waiters go ahead of every non-urgent one, in their own arrival order.
      const at = waiter.urgent ? list.findIndex((w) => !w.urgent) : -1;
      if (at >= 0) list.splice(at, 0, waiter);
      else list.push(waiter);
      this.sweeper ??= setInterval(() => this.sweepWaiters(), 50);
      this.sweeper.unref?.();
    });
  }

  /**
   * Sends waiters away (null) from endpoints that started struggling — an attempt running past
   * slowAfterMs frees no lane soon — and those that waited `waitMs`.
   */
  private sweepWaiters(): void {
    const now = this.now();
    for (const [endpointId, list] of this.waiters) {
      const struggling = this.isStruggling(endpointId);
      for (let i = list.length - 1; i >= 0; i--) {
        const w = list[i]!;
        if (struggling || now >= w.until) {
          list.splice(i, 1);
          w.grant(null);
        }
      }
      if (list.length === 0) this.waiters.delete(endpointId);
    }
    if (this.waiters.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Hands freed lanes of `endpointId` to its waiters, first in line first. */
  private wake(endpointId: string): void {
    const list = this.waiters.get(endpointId);
    if (!list) return;
    while (list.length > 0) {
      const next = list[0]!;
      const lease = this.tryAcquire(endpointId, { urgent: next.urgent });
      if (!lease) break;
      list.shift();
      next.grant(lease);
    }
    if (list.length === 0) this.waiters.delete(endpointId);
  }

  private struggling(lane: Lane, now: number): boolean {
    return lane.failing || lane.running.some((t) => now - t > this.slowAfterMs);
  }

  /** Whether `endpointId` is struggling now (for logs and tests). */
  isStruggling(endpointId: string): boolean {
    const lane = this.lanes.get(endpointId);
    return lane ? this.struggling(lane, this.now()) : false;
  }

  /**
   * How long a delivery that found no lane should wait before it is tried again: a struggling
   * endpoint's lane frees only when its slow attempt ends, a busy healthy one's within moments.
   */
  retryDelayMs(endpointId: string): number {
    const base = this.isStruggling(endpointId) ? 5_000 : 250;
    return base + Math.floor(Math.random() * base);
  }

  /** Running attempts of struggling endpoints. */
  slowRunning(now = this.now()): number {
    let n = 0;
    for (const lane of this.lanes.values()) if (this.struggling(lane, now)) n += lane.running.length;
    return n;
  }

  /**
   * A lane for one attempt to `endpointId`, or null when the endpoint (or the struggling endpoints
   * together) are at their limit. Call `release` with the attempt's outcome when it ends.
   */
  tryAcquire(endpointId: string, opts: { urgent?: boolean } = {}): LaneLease | null {
    const now = this.now();
    let lane = this.lanes.get(endpointId);
    if (lane) {
      const struggling = this.struggling(lane, now);
      const limit = struggling ? 1 : this.perEndpoint + (opts.urgent ? this.urgentExtra : 0);
      if (lane.running.length >= limit) return null;
      if (struggling && this.slowRunning(now) >= this.slowSlots) return null;
    } else {
      if (this.lanes.size >= MAX_TRACKED) this.evictIdle();
      lane = { running: [], failing: false };
      this.lanes.set(endpointId, lane);
    }
    const started = now;
    lane.running.push(started);
    const l = lane;
    let released = false;
    return {
      release: ({ success, latencyMs }) => {
        if (released) return;
        released = true;
        const i = l.running.indexOf(started);
        if (i >= 0) l.running.splice(i, 1);
        l.failing = !success || latencyMs > this.slowAfterMs;
        if (!l.failing && l.running.length === 0 && this.lanes.get(endpointId) === l)
          this.lanes.delete(endpointId);
        this.wake(endpointId);
      },
    };
  }

  /** Forgets the oldest idle endpoints (only failing flags are lost; running attempts are kept). */
  private evictIdle(): void {
    for (const [id, lane] of this.lanes) {
      if (this.lanes.size < MAX_TRACKED * 0.9) break;
      if (lane.running.length === 0) this.lanes.delete(id);
    }
  }
}
