import type { PrismaClient } from "@breakwater/db";
import type { Logger } from "pino";

/** Records when keys were last used without touching Postgres on the request path. */
export interface KeyUsageTracker {
  /** Notes a use (in memory only). */
  touch(keyId: string, at?: number): void;
  /** Writes every pending use in one UPDATE; safe to call concurrently. */
  flush(): Promise<void>;
  /** Flushes once more and stops the timer. */
  stop(): Promise<void>;
}

/**
 * A key-usage tracker that batches `last_used_at` into one UPDATE every `intervalMs` (default
 * 5 s). `last_used_at` only ever moves forward, so replicas flushing out of order are harmless.
 */
export function createKeyUsageTracker(opts: {
  db: PrismaClient;
  log?: Logger;
  intervalMs?: number;
  /** Project keys (the SDK API) or management keys (the management API). */
  table?: "api_keys" | "management_keys";
}): KeyUsageTracker {
  const table = opts.table ?? "api_keys";
  let pending = new Map<string, number>();
  let flushing: Promise<void> | null = null;
  const flushNow = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const ids = [...batch.keys()];
    const times = ids.map((id) => new Date(batch.get(id)!).toISOString());
    try {
      await opts.db.$executeRawUnsafe(
        `UPDATE ${table} AS k SET last_used_at = v.t
           FROM unnest($1::text[], $2::timestamptz[]) AS v(id, t)
          WHERE k.id = v.id AND (k.last_used_at IS NULL OR k.last_used_at < v.t)`,
        ids,
        times,
      );
    } catch (err) {
      opts.log?.warn({ err }, "could not record key usage; will retry");
      for (const [id, t] of batch) if ((pending.get(id) ?? 0) < t) pending.set(id, t);
    }
  };
  const flush = async () => {
    while (flushing) await flushing;
    flushing = flushNow().finally(() => {
      flushing = null;
    });
    await flushing;
  };
  const timer = setInterval(() => void flush(), opts.intervalMs ?? 5000);
  timer.unref();
  return {
    touch(keyId, at = Date.now()) {
      if ((pending.get(keyId) ?? 0) < at) pending.set(keyId, at);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
