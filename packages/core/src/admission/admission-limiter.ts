import type { RedisClient } from "@breakwater/queue";
import type { Logger } from "pino";
import { luaScript, runScript } from "../budgets/lua";

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

/** Adds a replica's count to a project's window and answers the total. KEYS: 1 window. ARGV: 1 n. */
const ADD_SCRIPT = luaScript(
  "admission-add",
  `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], 3)
return total
`,
);

/** A failed sync is logged at most this often (it repeats every sync while Redis is away). */
const SYNC_ERROR_LOG_EVERY_MS = 10_000;

/**
 * Per-project admission limit as a one-second fixed window shared by every replica, without a
 * Redis round trip on the request path: each replica counts locally and, every `syncMs`
 * (default 25 ms), adds its pending counts to each project's Redis counter — one command per
 * project, each in its project's slot, so a Redis Cluster spreads them and never sees a cross-slot
 * pipeline (on one connection they still leave in one write) — and learns the cluster-wide total. A request is admitted while (cluster total at last sync + local
 * pending) is under the limit, so the cluster can overshoot by at most what other replicas admit
 * within one sync interval. If Redis is unreachable each replica still enforces the limit on its
 * own traffic.
 */
export function createAdmissionLimiter(opts: {
  redis?: RedisClient;
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
  let errorLoggedAt = 0;
  const syncFailed = (err: unknown, projects: number) => {
    const now = Date.now();
    if (now - errorLoggedAt < SYNC_ERROR_LOG_EVERY_MS) return;
    errorLoggedAt = now;
    opts.log?.warn(
      { err, projects },
      "admission sync to Redis failed; until it recovers each replica enforces the limit on its own traffic",
    );
  };

  const sync = async () => {
    if (!opts.redis || syncing) return syncing ?? undefined;
    const batch: { projectId: string; w: Window; n: number }[] = [];
    for (const [projectId, w] of windows) {
      if (w.pending > 0) batch.push({ projectId, w, n: w.pending });
    }
    if (batch.length === 0) return;
    const redis = opts.redis;
    let failures = 0;
    let firstError: unknown;
    syncing = Promise.all(
      batch.map((b) =>
        runScript(redis, ADD_SCRIPT, [`${prefix}{${b.projectId}}:${b.w.second}`], [b.n]).then(
          (total) => {
            if (windows.get(b.projectId) !== b.w) return; // the window rolled over meanwhile
            b.w.pending -= b.n;
            b.w.synced = Math.max(b.w.synced, Number(total));
          },
          (err: unknown) => {
            failures++;
            firstError ??= err;
            if (windows.get(b.projectId) !== b.w) return;
            b.w.pending -= b.n;
            b.w.synced += b.n;
          },
        ),
      ),
    )
      .then(() => {
        if (failures > 0) syncFailed(firstError, failures);
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
