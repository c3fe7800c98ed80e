import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** The verdict of one admission: allowed, or refused with the seconds until the next window. */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface AdmissionLimiter {
  /** Admits one SDK request of `projectId` under `ratePerSecond` (null = unlimited). No I/O. */
  admit(projectId: string, ratePerSecond: number | null, now?: number): Admission;
  /**
   * The minute and hour allowance implied by the per-second rate, and what this replica has
   * admitted of it (for the optional X-RateLimit-* headers; advisory only).
   */
  quota(
    projectId: string,
    ratePerSecond: number | null,
    now?: number,
  ): { limitMinute: number; remainingMinute: number; limitHour: number; remainingHour: number } | null;
  /** Pushes pending counts to Redis now (tests, shutdown). */
  sync(): Promise<void>;
  /**
   * Drops the windows and tallies no request can read any more (windows of seconds already over,
   * tallies of past hours). Runs by itself about once a second; exposed for tests.
   */
  prune(now?: number): void;
  /** Projects currently tracked (windows, tallies): bounded by the projects active lately. */
  tracked(): { windows: number; tallies: number };
  stop(): Promise<void>;
}

interface Window {
  second: number;
  /** Requests this replica admitted in the window that Redis has not seen yet. */
  pending: number;
  /** The cluster-wide count for the window as of the last sync (includes our synced requests). */
  synced: number;
}

/**
 * Per-project admission limit as a one-second fixed window shared by every replica, without a
 * Redis round trip on the request path: each replica counts locally and, every `syncMs`
 * (default 25 ms), adds its pending counts to a per-project Redis counter in one pipeline and
 * learns the cluster-wide total. A request is admitted while (cluster total at last sync + local
 * pending) is under the limit, so the cluster can overshoot by at most what other replicas admit
 * within one sync interval. If Redis is unreachable each replica still enforces the limit on its
 * own traffic.
 */
export function createAdmissionLimiter(opts: {
  redis?: Redis;
  log?: Logger;
  syncMs?: number;
  keyPrefix?: string;
}): AdmissionLimiter {
  const windows = new Map<string, Window>();
  const tallies = new Map<string, { minute: number; inMinute: number; hour: number; inHour: number }>();
  const tally = (projectId: string, now: number) => {
    const minute = Math.floor(now / 60_000);
    const hour = Math.floor(now / 3_600_000);
    let t = tallies.get(projectId);
    if (!t) {
      t = { minute, inMinute: 0, hour, inHour: 0 };
      tallies.set(projectId, t);
    }
    if (t.minute !== minute) {
      t.minute = minute;
      t.inMinute = 0;
    }
    if (t.hour !== hour) {
      t.hour = hour;
      t.inHour = 0;
    }
    return t;
  };
  const prefix = opts.keyPrefix ?? "bw:adm:";
  let syncing: Promise<void> | null = null;

  const sync = async () => {
    if (!opts.redis || syncing) return syncing ?? undefined;
    const batch: { projectId: string; w: Window; n: number }[] = [];
    for (const [projectId, w] of windows) {
      if (w.pending > 0) batch.push({ projectId, w, n: w.pending });
    }
    if (batch.length === 0) return;
    const pipe = opts.redis.pipeline();
    for (const b of batch) {
      const key = `${prefix}{${b.projectId}}:${b.w.second}`;
      pipe.incrby(key, b.n);
      pipe.expire(key, 3);
    }
    syncing = pipe
      .exec()
      .then((results) => {
        batch.forEach((b, i) => {
          const [err, total] = results?.[i * 2] ?? [null, null];
          const current = windows.get(b.projectId);
          if (current !== b.w) return; // the window rolled over meanwhile
          b.w.pending -= b.n;
          if (!err && typeof total === "number") b.w.synced = Math.max(b.w.synced, total);
          else b.w.synced += b.n;
        });
      })
      .catch((err: unknown) => {
        opts.log?.debug({ err }, "admission sync failed; enforcing per replica");
        for (const b of batch) {
          if (windows.get(b.projectId) === b.w) {
            b.w.pending -= b.n;
            b.w.synced += b.n;
          }
        }
      })
      .finally(() => {
        syncing = null;
      });
    await syncing;
  };

  const prune = (now = Date.now()) => {
    const second = Math.floor(now / 1000);
    const hour = Math.floor(now / 3_600_000);
    for (const [projectId, w] of windows) {
      // A window two seconds old is over on every replica: what it still has to sync is moot.
      if (w.second < second - 1) windows.delete(projectId);
    }
    for (const [projectId, t] of tallies) {
      if (t.hour < hour) tallies.delete(projectId);
    }
  };
  let prunedAt = 0;
  const timer = setInterval(() => {
    void sync();
    // Without this, every project ever seen keeps a window and a tally for the process's life.
    const now = Date.now();
    if (now - prunedAt >= 1000) {
      prunedAt = now;
      prune(now);
    }
  }, opts.syncMs ?? 25);
  timer.unref();

  return {
    admit(projectId, ratePerSecond, now = Date.now()) {
      if (ratePerSecond === null) return { ok: true };
      const second = Math.floor(now / 1000);
      let w = windows.get(projectId);
      if (!w || w.second !== second) {
        w = { second, pending: 0, synced: 0 };
        windows.set(projectId, w);
      }
      if (w.synced + w.pending >= ratePerSecond) {
        return { ok: false, retryAfterSeconds: 1 };
      }
      w.pending++;
      const t = tally(projectId, now);
      t.inMinute++;
      t.inHour++;
      return { ok: true };
    },
    quota(projectId, ratePerSecond, now = Date.now()) {
      if (ratePerSecond === null) return null;
      const t = tally(projectId, now);
      const limitMinute = ratePerSecond * 60;
      const limitHour = ratePerSecond * 3600;
      return {
        limitMinute,
        remainingMinute: Math.max(0, limitMinute - t.inMinute),
        limitHour,
        remainingHour: Math.max(0, limitHour - t.inHour),
      };
    },
    sync,
    prune,
    tracked: () => ({ windows: windows.size, tallies: tallies.size }),
    async stop() {
      clearInterval(timer);
      await sync();
    },
  };
}
