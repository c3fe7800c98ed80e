import type { PrismaClient, Tx } from "@breakwater/db";
import {
  eventHorizonOf,
  holdEventPartitions,
  REBUILD_TX_OPTIONS,
  rebuildHoursInTx,
} from "./rebuild-usage-rollups";

/** The one scheduler cursor row. */
export const USAGE_WATERMARK_ID = "usage-rollups";

/**
 * How long an ingest may take to commit after its received_at (the inserting transaction's start)
 * and still be rolled up: steps re-scan what was received this long before they last ran. Ingest
 * statements commit within seconds; re-scanning only rebuilds the same hours again.
 */
export const COMMIT_GRACE_MS = 30_000;

export interface RollUpUsageOptions {
  /** Events per chunk (one transaction); a chunk rebuilds every hour its events touch. */
  chunkEvents?: number;
  /** Stop starting new chunks after this long (the next scheduled step continues). */
  timeBudgetMs?: number;
  /** Aborted when the worker is stopping: no new chunk starts (the next step continues). */
  signal?: AbortSignal;
}

export interface RollUpUsageResult {
  /** False when another step held the watermark (nothing done). */
  ran: boolean;
  chunks: number;
  /** (project, hour) pairs rebuilt. */
  hoursRebuilt: number;
  hoursSkippedBeforeRetention: number;
  /** True when every received event is rolled up (no backlog left for the next step). */
  caughtUp: boolean;
  /** The watermark after the step. */
  receivedBefore: Date | null;
}

/**
 * Events received before this instant were visible to the chunk that moved the watermark: below the
 * watermark, and received over COMMIT_GRACE_MS before that chunk ran (`scannedAt`), so their
 * transactions had committed. Later ones may have been in flight, and are scanned again. While
 * catching up, the watermark trails far behind the scans and nothing is scanned twice.
 */
export function surelySeenBefore(receivedBefore: Date, scannedAt: Date): Date {
  return new Date(Math.min(receivedBefore.getTime(), scannedAt.getTime() - COMMIT_GRACE_MS));
}

interface ChunkResult {
  locked: boolean;
  hoursRebuilt: number;
  skipped: number;
  caughtUp: boolean;
  receivedBefore: Date | null;
}

async function stepChunk(tx: Tx, chunkEvents: number): Promise<ChunkResult> {
  await tx.$executeRaw`INSERT INTO usage_rollup_watermarks (id, received_before, updated_at)
    VALUES (${USAGE_WATERMARK_ID}, 'epoch', now()) ON CONFLICT (id) DO NOTHING`;
  // One step at a time across every worker: a concurrent one skips instead of waiting.
  const [mark] = await tx.$queryRaw<{ received_before: Date; updated_at: Date; now: Date }[]>`
    SELECT received_before, updated_at, now() AS now FROM usage_rollup_watermarks WHERE id = ${USAGE_WATERMARK_ID}
    FOR UPDATE SKIP LOCKED`;
  if (!mark) return { locked: false, hoursRebuilt: 0, skipped: 0, caughtUp: false, receivedBefore: null };
  await holdEventPartitions(tx);
  const watermark = mark.received_before;
  const scanFrom = surelySeenBefore(watermark, mark.updated_at);
  // Events are partitioned by their own timestamp, and a late event may be days old when it
  // arrives, so the scan by received_at cannot be cut to recent partitions without losing what the
  // design counts. Its lower bound is the horizon of dropped partitions: an event older than that
  // is before every project's floor and is never rolled up anyway. Partitions before it are gone;
  // the ones after it each answer with one descent of their received_at index.
  const since = (await eventHorizonOf(tx)) ?? new Date(0);

  // The chunk ends before the (chunkEvents+1)-th event received after the watermark, or now.
  const [next] = await tx.$queryRaw<{ received_at: Date }[]>`
    SELECT received_at FROM metadata_events
     WHERE received_at >= ${watermark}::timestamptz AND "timestamp" >= ${since}::timestamptz
     ORDER BY received_at OFFSET ${chunkEvents} LIMIT 1`;
  let upper = mark.now;
  let caughtUp = true;
  if (next && next.received_at < mark.now) {
    caughtUp = false;
    // Events sharing one received_at (one insert) stay in one chunk, so a chunk always advances.
    upper = next.received_at > watermark ? next.received_at : new Date(next.received_at.getTime() + 1);
  }

  const dirty = await tx.$queryRaw<{ project_id: string; hours: Date[] }[]>`
    SELECT project_id, array_agg(DISTINCT date_trunc('hour', "timestamp", 'UTC')) AS hours
      FROM metadata_events
     WHERE received_at >= ${scanFrom}::timestamptz AND received_at < ${upper}::timestamptz
       AND "timestamp" >= ${since}::timestamptz
     GROUP BY project_id
     ORDER BY project_id`;
  let hoursRebuilt = 0;
  let skipped = 0;
  for (const d of dirty) {
    const r = await rebuildHoursInTx(tx, d.project_id, d.hours);
    hoursRebuilt += r.rebuilt;
    skipped += r.skippedBeforeRetention;
  }
  await tx.$executeRaw`UPDATE usage_rollup_watermarks SET received_before = ${upper}::timestamptz, updated_at = now()
    WHERE id = ${USAGE_WATERMARK_ID}`;
  return { locked: true, hoursRebuilt, skipped, caughtUp, receivedBefore: upper };
}

/**
 * One scheduler step: rebuilds every (project, hour) that received events since the watermark kept
 * in Postgres — late events for old hours included — and advances it, in chunks of at most
 * `chunkEvents` received events, each chunk one transaction with its watermark move (so a crash
 * redoes at most one chunk, and rebuilding is idempotent). After downtime it catches up chunk by
 * chunk within `timeBudgetMs`. Hours before a project's retention floor are never rebuilt.
 */
export async function rollUpUsage(
  db: PrismaClient,
  opts: RollUpUsageOptions = {},
): Promise<RollUpUsageResult> {
  const chunkEvents = opts.chunkEvents ?? 50_000;
  const deadline = Date.now() + (opts.timeBudgetMs ?? 10_000);
  const result: RollUpUsageResult = {
    ran: false,
    chunks: 0,
    hoursRebuilt: 0,
    hoursSkippedBeforeRetention: 0,
    caughtUp: false,
    receivedBefore: null,
  };
  for (;;) {
    if (opts.signal?.aborted) return result;
    const chunk = await db.$transaction((tx) => stepChunk(tx, chunkEvents), REBUILD_TX_OPTIONS);
    if (!chunk.locked) return result;
    result.ran = true;
    result.chunks++;
    result.hoursRebuilt += chunk.hoursRebuilt;
    result.hoursSkippedBeforeRetention += chunk.skipped;
    result.caughtUp = chunk.caughtUp;
    result.receivedBefore = chunk.receivedBefore;
    if (chunk.caughtUp || Date.now() >= deadline) return result;
  }
}

/** Where the rollups stand: events received before this instant are reflected (null = never ran). */
export async function usageRolledUpTo(db: PrismaClient | Tx): Promise<Date | null> {
  const row = await db.usageRollupWatermark.findUnique({ where: { id: USAGE_WATERMARK_ID } });
  if (!row || row.receivedBefore.getTime() <= 0) return null;
  return row.receivedBefore;
}
