import { Prisma, type PrismaClient, type Tx } from "@breakwater/db";
import { retentionByProject } from "./apply-usage-retention";
import { EVENT_HORIZON_ID, EVENT_PARTITIONS_LOCK, eventHorizonOf } from "./rebuild-usage-rollups";
import { surelySeenBefore, USAGE_WATERMARK_ID } from "./roll-up-usage";

const DAY_MS = 86_400_000;
/** Daily partitions are named metadata_events_pYYYYMMDD and hold [day 00:00 UTC, next day 00:00 UTC). */
const PARTITION_RE = /^metadata_events_p(\d{4})(\d{2})(\d{2})$/;
export const DEFAULT_PARTITION = "metadata_events_default";

export interface MaintainEventPartitionsOptions {
  now?: Date;
  /** Days ahead of today that always have a partition (default 7). */
  aheadDays?: number;
  /** Days kept past the longest effective retention before a partition is dropped (default 2). */
  marginDays?: number;
  /** Partitions created per run for days that reached the DEFAULT partition (default 32). */
  maxDefaultDays?: number;
  /** How far back a day in DEFAULT still gets its own partition when nothing is ever dropped (default 1000). */
  maxBackDays?: number;
  /** How long DDL waits for a lock before giving up until the next run (default 2000 ms). */
  lockTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface MaintainEventPartitionsResult {
  /** Partitions created (names). */
  created: string[];
  /** Rows moved out of the DEFAULT partition into a partition created for their day. */
  movedFromDefault: number;
  /** Partitions dropped whole (names). */
  dropped: string[];
  /** Rows deleted from DEFAULT that were older than the drop horizon. */
  deletedFromDefault: number;
  /** Partitions ending at or before this instant may be dropped; null = some project keeps events forever. */
  dropBefore: Date | null;
  /** Why a drop was left for the next run, if one was. */
  deferred: string | null;
}

/** Midnight UTC of the day containing `at`. */
export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The partition holding `day` (any instant inside it). */
export function partitionName(day: Date): string {
  return `metadata_events_p${utcDay(day).toISOString().slice(0, 10).replaceAll("-", "")}`;
}

/** The day partitions that exist, by first instant, oldest first. */
export async function listEventPartitions(db: PrismaClient | Tx): Promise<{ name: string; from: Date }[]> {
  const rows = await db.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'metadata_events'::regclass`;
  const out: { name: string; from: Date }[] = [];
  for (const { name } of rows) {
    const m = PARTITION_RE.exec(name);
    if (m) out.push({ name, from: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) });
  }
  return out.sort((a, b) => a.from.getTime() - b.from.getTime());
}

const ts = (d: Date) => Prisma.raw(`'${d.toISOString()}'::timestamptz`);

/**
 * Creates the partition of one UTC day. Postgres refuses to create a partition while DEFAULT holds
 * rows of its range, so in one transaction those rows leave DEFAULT, the partition is created, and
 * they are inserted again (ids and all) — nothing is lost or visible half-moved. Returns the rows
 * moved, or null when the partition already existed.
 */
async function createDayPartition(
  db: PrismaClient,
  day: Date,
  lockTimeoutMs: number,
): Promise<number | null> {
  const name = partitionName(day);
  const from = utcDay(day);
  const to = new Date(from.getTime() + DAY_MS);
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    // One maintainer at a time (two workers' runs could overlap).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('bw:usage:partition-maintenance', 0))`;
    const [exists] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_class WHERE relname = ${name} AND relnamespace = current_schema()::regnamespace`;
    if ((exists?.n ?? 0) > 0) return null;
    await tx.$executeRawUnsafe(`CREATE TEMP TABLE bw_moved_events (LIKE metadata_events) ON COMMIT DROP`);
    const moved = await tx.$executeRaw`
      WITH m AS (DELETE FROM ${Prisma.raw(DEFAULT_PARTITION)}
                  WHERE "timestamp" >= ${ts(from)} AND "timestamp" < ${ts(to)} RETURNING *)
      INSERT INTO bw_moved_events SELECT * FROM m`;
    await tx.$executeRawUnsafe(
      `CREATE TABLE "${name}" PARTITION OF metadata_events FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
    );
    if (moved > 0) await tx.$executeRawUnsafe(`INSERT INTO metadata_events SELECT * FROM bw_moved_events`);
    return moved;
  });
}

/**
 * Drops one partition whole, after raising the event horizon to its end — under the exclusive
 * partitions lock, which waits for every rollup writer in flight (they hold it shared), so no
 * rebuild can recompute an hour of it from nothing. Refused (false) while any of its events is
 * not yet rolled up. Idempotent: a partition already gone is simply skipped.
 */
async function dropPartition(
  db: PrismaClient,
  name: string,
  end: Date,
  lockTimeoutMs: number,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${EVENT_PARTITIONS_LOCK}, 0))`;
    const [exists] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_class WHERE relname = ${name} AND relnamespace = current_schema()::regnamespace`;
    if ((exists?.n ?? 0) === 0) return true;
    if (!(await allRolledUp(tx, Prisma.raw(`"${name}"`), null))) return false;
    await raiseHorizon(tx, end);
    await tx.$executeRawUnsafe(`DROP TABLE "${name}"`);
    return true;
  });
}

/** True when the scheduler has rolled up every event of `table` (older than `before`, if given). */
async function allRolledUp(tx: Tx, table: Prisma.Sql, before: Date | null): Promise<boolean> {
  const mark = await tx.usageRollupWatermark.findUnique({ where: { id: USAGE_WATERMARK_ID } });
  const seenBefore = mark ? surelySeenBefore(mark.receivedBefore, mark.updatedAt) : new Date(0);
  const older = before ? Prisma.sql`AND "timestamp" < ${before}` : Prisma.empty;
  const pending = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM ${table} WHERE received_at >= ${seenBefore} ${older} LIMIT 1`;
  return pending.length === 0;
}

async function raiseHorizon(tx: Tx, to: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO event_retention_horizons (id, retained_from, updated_at) VALUES (${EVENT_HORIZON_ID}, ${to}, now())
    ON CONFLICT (id) DO UPDATE SET retained_from = GREATEST(event_retention_horizons.retained_from, excluded.retained_from),
                                   updated_at = now()`;
}

/**
 * Makes sure every UTC day from `from` through `to` has its partition (rows of those days already
 * in DEFAULT move in); for loading history in bulk (a benchmark, an import) without filling DEFAULT.
 * Returns the partitions created.
 */
export async function ensureEventPartitions(
  db: PrismaClient,
  from: Date,
  to: Date,
  opts: { lockTimeoutMs?: number } = {},
): Promise<string[]> {
  const existing = new Set((await listEventPartitions(db)).map((p) => p.name));
  const created: string[] = [];
  for (let day = utcDay(from).getTime(); day <= to.getTime(); day += DAY_MS) {
    const name = partitionName(new Date(day));
    if (existing.has(name)) continue;
    if ((await createDayPartition(db, new Date(day), opts.lockTimeoutMs ?? 2_000)) !== null)
      created.push(name);
  }
  return created;
}

/**
 * Keeps metadata_events' daily partitions (idempotent; the event-partitions job runs it):
 * 1. a partition exists for yesterday, today and `aheadDays` ahead;
 * 2. days that reached DEFAULT (no partition existed when their events came) get their own
 *    partition and their rows move there, up to `maxDefaultDays` per run;
 * 3. partitions that end `marginDays` before the longest effective retention_days of every project
 *    are dropped whole (never deleted row by row) once every event in them is rolled up, and the
 *    horizon rises to their end; DEFAULT rows that old are deleted. While any project keeps raw
 *    events forever nothing is dropped. Projects with a shorter retention keep being trimmed by
 *    usage retention's bounded per-project deletes.
 */
export async function maintainEventPartitions(
  db: PrismaClient,
  opts: MaintainEventPartitionsOptions = {},
): Promise<MaintainEventPartitionsResult> {
  const now = opts.now ?? new Date();
  const aheadDays = opts.aheadDays ?? 7;
  const marginDays = opts.marginDays ?? 2;
  const lockTimeoutMs = opts.lockTimeoutMs ?? 2_000;
  const today = utcDay(now);
  const result: MaintainEventPartitionsResult = {
    created: [],
    movedFromDefault: 0,
    dropped: [],
    deletedFromDefault: 0,
    dropBefore: null,
    deferred: null,
  };

  // Where drops may reach: every project's effective retention, the longest one plus the margin.
  const days = await retentionByProject(db, now);
  const values = [...days.values()];
  if (values.length > 0 && values.every((d) => d !== null && d >= 0)) {
    const longest = Math.max(...(values as number[]));
    result.dropBefore = utcDay(new Date(today.getTime() - (longest + marginDays) * DAY_MS));
  }

  const create = async (day: Date) => {
    const moved = await createDayPartition(db, day, lockTimeoutMs);
    if (moved === null) return;
    result.created.push(partitionName(day));
    result.movedFromDefault += moved;
  };

  // 1. The coming days.
  const existing = new Set((await listEventPartitions(db)).map((p) => p.name));
  for (let k = -1; k <= aheadDays; k++) {
    const day = new Date(today.getTime() + k * DAY_MS);
    if (!existing.has(partitionName(day))) await create(day);
  }

  // 2. Days that reached DEFAULT, within what is kept (older ones are deleted below) and the window ahead.
  const horizon = await eventHorizonOf(db);
  const lowest = Math.max(
    result.dropBefore?.getTime() ?? today.getTime() - (opts.maxBackDays ?? 1000) * DAY_MS,
    horizon?.getTime() ?? 0,
  );
  const defaultDays = await db.$queryRaw<{ day: Date }[]>`
    SELECT DISTINCT date_trunc('day', "timestamp", 'UTC') AS day FROM ${Prisma.raw(DEFAULT_PARTITION)}
     WHERE "timestamp" >= ${new Date(lowest)} AND "timestamp" < ${new Date(today.getTime() + (aheadDays + 1) * DAY_MS)}
     ORDER BY 1 LIMIT ${opts.maxDefaultDays ?? 32}`;
  for (const { day } of defaultDays) {
    if (opts.signal?.aborted) return result;
    await create(day);
  }

  // 3. Drops, oldest first.
  if (result.dropBefore === null) return result;
  const dropBefore = result.dropBefore;
  for (const p of await listEventPartitions(db)) {
    const end = new Date(p.from.getTime() + DAY_MS);
    if (end > dropBefore || opts.signal?.aborted) break;
    if (!(await dropPartition(db, p.name, end, lockTimeoutMs))) {
      result.deferred = `${p.name} holds events not rolled up yet`;
      return result;
    }
    result.dropped.push(p.name);
  }
  // Strays in DEFAULT older than every retention (the days before the oldest partition).
  result.deletedFromDefault = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${EVENT_PARTITIONS_LOCK}, 0))`;
    if (!(await allRolledUp(tx, Prisma.raw(DEFAULT_PARTITION), dropBefore))) {
      result.deferred = "DEFAULT holds old events not rolled up yet";
      return 0;
    }
    const n = await tx.$executeRaw`
      DELETE FROM ${Prisma.raw(DEFAULT_PARTITION)} WHERE "timestamp" < ${dropBefore}`;
    if (n > 0 || result.dropped.length > 0) await raiseHorizon(tx, dropBefore);
    return n;
  });
  return result;
}
