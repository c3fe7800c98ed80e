/**
 * Per-endpoint lanes for the built-in sender, so one tenant's slow or failing receiver cannot
 * hold every delivery slot of a worker (each attempt may wait up to 15 s for an answer).
 *
 * - A healthy endpoint runs up to `perEndpoint` attempts at once.
 * - An endpoint is *struggling* while its last attempt failed or was slow, or while one of its
 *   attempts has been running longer than `slowAfterMs`. A struggling endpoint gets one lane, and
 *   all struggling endpoints together at most `slowSlots` running attempts.
 * - A delivery that finds no free lane is not attempted: it is put back (no attempt spent, no
 *   slot held) to be picked up again a moment later, while other endpoints' deliveries keep flowing.
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
  now?: () => number;
}

interface Lane {
  /** Start times of this endpoint's running attempts. */
  running: number[];
  /** The last attempt failed or was slow; cleared by a quick success. */
  failing: boolean;
}

const MAX_TRACKED = 10_000;

export class EndpointLanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly perEndpoint: number;
  private readonly slowSlots: number;
  private readonly slowAfterMs: number;
  private readonly now: () => number;

  constructor(opts: EndpointLaneOptions) {
    this.perEndpoint = Math.max(1, opts.perEndpoint);
    this.slowSlots = Math.max(1, opts.slowSlots);
    this.slowAfterMs = opts.slowAfterMs ?? 1_000;
    this.now = opts.now ?? Date.now;
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
  tryAcquire(endpointId: string): { release(outcome: { success: boolean; latencyMs: number }): void } | null {
    const now = this.now();
    let lane = this.lanes.get(endpointId);
    if (lane) {
      const struggling = this.struggling(lane, now);
      if (lane.running.length >= (struggling ? 1 : this.perEndpoint)) return null;
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
        if (!l.failing && l.running.length === 0) this.lanes.delete(endpointId);
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
