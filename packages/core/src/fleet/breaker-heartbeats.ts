import type { RedisClient } from "@breakwater/queue";
import type { Pool } from "pg";
import { writeCorkedNow } from "../budgets/budget-redis";
import { luaScript, runBudgetScript } from "../budgets/lua";
import type { Deps } from "../context";
import { invalid } from "../errors";
import type { CircuitState } from "./breaker-state";
import { BREAKER_LIFT_SCRIPT, fleetKeys, PARSE, SNAPSHOT_KEY_TTL_MS, snapshotField } from "./fleet-redis";
import {
  BREAKER_REPORT_MAX_FUTURE_MS,
  type BreakerReportInput,
  type BreakerReportResult,
  MAX_BREAKER_BATCH,
  recordBreakerReport,
  recordBreakerReports,
} from "./record-breaker-report";

/**
 * The breaker-report intake of one SDK API process: the heartbeat fast path in front of the
 * transactional `recordBreakerReport`.
 *
 * Every SDK instance re-sends its unchanged breaker state about once a minute; a fleet of 100,000
 * instances on three providers sends 5,000 such heartbeats a second. A heartbeat changes only the
 * snapshot's counts and its last-seen time, so it must not cost a Postgres transaction:
 *
 * - **Redis holds each snapshot's settled state** (`bw:fleet:{project}:snap`, one field per
 *   provider + instance: state, reported_at and received_at in ms), in the project's hash slot
 *   like its budget keys, so the fast path works on a Redis Cluster and one master down affects
 *   only its own projects. One script per report decides:
 *   - *heartbeat*: the stored state is the reported one, the report is newer and the instance is
 *     not stale → the field moves forward and the report joins this process's flush buffer;
 *   - *late*: the stored report is as new or newer → nothing changes (as in Postgres);
 *   - *slow*: anything else (a state change, a first report, a stale instance coming back, no
 *     entry after a Redis restart, or another slow report of the same instance still in flight)
 *     → the field is marked busy and the report goes through `recordBreakerReport`'s transaction
 *     with every rule it has (forward-only, transition rows, episodes, webhook outbox, incidents,
 *     live push). Afterwards the field is set to what Postgres committed and the mark is lifted.
 *     While a field is busy every report of that instance takes the slow path, so a heartbeat
 *     can never overtake a transition that has not committed yet; a mark whose owner died lapses
 *     after `BUSY_LAPSE_MS`.
 * - **Last-seen times are group-committed**: every `flushMs` the buffered heartbeats (the newest
 *   per instance) are written in one multi-row UPDATE per chunk, guarded by the state and
 *   reported_at they assumed. A row the guard refuses (Postgres holds another state after all —
 *   say a Redis entry that outlived a crash) is replayed through the transactional path, so a
 *   transition is recorded even then.
 *
 * What a 202 promises: a transition is committed to Postgres before the answer; a heartbeat's
 * counts and last-seen time are in this process's buffer and reach Postgres within one flush
 * window. A process killed between flushes loses at most that window of last-seen times.
 */

/** A busy mark older than this belongs to a report that died mid-transaction: it lapses. */
export const BUSY_LAPSE_MS = 30_000;
/** Default group-commit window of buffered heartbeats. */
export const HEARTBEAT_FLUSH_MS = 1_000;
/** Rows per UPDATE statement of a flush. */
const FLUSH_CHUNK = 2_000;
/** Replays of refused rows run at most this many at once (each is one transaction). */
const REPLAY_CONCURRENCY = 4;
/** Transactions of the transactional path one process runs at once (each a batch of reports). */
const MAX_TRANSACTIONS_IN_FLIGHT = 2;
/** A refused heartbeat whose replay keeps failing (its project deleted, say) is dropped after this. */
const MAX_REPLAY_ATTEMPTS = 5;

/**
 * Judges the reports of one project that arrived in one turn of the event loop, in arrival order
 * (the same verdicts as one call each, in that order). KEYS: snap, busy. ARGV: nowMs,
 * staleCutoffMs, busyLapseMs, keyTtlMs, then per report: field, state, reportedAtMs. Returns one
 * verdict per report: 1 heartbeat (applied here; buffer it), 2 late (nothing changes), 0 slow
 * (marked busy).
 */
export const BREAKER_REPORT_SCRIPT = luaScript(
  "breaker-report",
  `${PARSE}
local now = tonumber(ARGV[1])
local cutoff = tonumber(ARGV[2])
local lapse = tonumber(ARGV[3])
local out = {}
local touchedSnap, touchedBusy = false, false
local seen = {}
for i = 5, #ARGV, 3 do
  local f, st, r = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local verdict = 0
  local busy = redis.call('HGET', KEYS[2], f)
  if busy then
    local sep = string.find(busy, '|', 1, true)
    local n = tonumber(string.sub(busy, 1, sep - 1))
    local since = tonumber(string.sub(busy, sep + 1))
    if since + lapse < now then n = 0 end
    redis.call('HSET', KEYS[2], f, (n + 1) .. '|' .. ARGV[1])
    touchedBusy = true
  else
    local v = redis.call('HGET', KEYS[1], f)
    local decided = false
    if v then
      local state, at, rcv = parse(v)
      if at >= r then
        verdict = 2
        decided = true
      elseif state == st and rcv >= cutoff then
        redis.call('HSET', KEYS[1], f, state .. '|' .. ARGV[i + 2] .. '|' .. ARGV[1])
        local k = liveKey(state, providerOf(f))
        redis.call('ZADD', k, now, f)
        if not seen[k] then seen[k] = providerOf(f) end
        touchedSnap = true
        verdict = 1
        decided = true
      end
    end
    if not decided then
      redis.call('HSET', KEYS[2], f, '1|' .. ARGV[1])
      touchedBusy = true
    end
  end
  out[#out + 1] = verdict
end
if touchedSnap then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  for k, provider in pairs(seen) do
    redis.call('PEXPIRE', k, ARGV[4])
    redis.call('HSET', prefix .. 'last', provider, ARGV[1])
  end
  redis.call('PEXPIRE', prefix .. 'last', ARGV[4])
  redis.call('PEXPIRE', prefix .. 'built', ARGV[4])
end
if touchedBusy then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return out
`,
);

export type BreakerReportPath = "heartbeat" | "late" | "transition" | "applied" | "unchanged";

export interface BreakerIntakeDeps extends Deps {
  redis: RedisClient;
  /** The flush's Postgres pool (plain `pg`: one multi-row statement per chunk). */
  pg: Pool;
}

export interface BreakerIntakeOptions {
  /** Group-commit window of heartbeats (ms). */
  flushMs?: number;
  /** Called after each flush (tests, metrics). */
  onFlush?: (f: { rows: number; written: number; replayed: number; ms: number; failed: boolean }) => void;
}

interface Heartbeat {
  projectId: string;
  provider: string;
  sdkInstanceId: string;
  state: CircuitState;
  failureCount: number;
  successCount: number;
  reportedAt: Date;
  receivedAt: Date;
  /** Failed replays of this heartbeat (see replay). */
  attempts?: number;
}

/** Counts of this process's reports by path, and of flushed rows (for metrics). */
export interface BreakerIntakeCounts {
  heartbeat: number;
  late: number;
  slow: number;
  flushedRows: number;
  replayedRows: number;
  flushFailures: number;
  /** Heartbeats waiting for the next flush. */
  buffered: number;
}

interface Judging {
  field: string;
  state: string;
  reportedMs: number;
  resolve: (r: [number, number]) => void;
  reject: (err: unknown) => void;
}

interface Waiting {
  i: BreakerReportInput;
  resolve: (r: BreakerReportResult) => void;
  reject: (err: unknown) => void;
}

const keyOf = (projectId: string, provider: string, sdkInstanceId: string) =>
  `${projectId}\u0000${provider}\u0000${sdkInstanceId}`;

export class BreakerReportIntake {
  private pending = new Map<string, Heartbeat>();
  private waiting: Waiting[] = [];
  private judging = new Map<string, Judging[]>();
  private judgeScheduled = false;
  private lifting = new Map<string, string[]>();
  private liftScheduled = false;
  private inFlight = 0;
  private pumpScheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private readonly flushMs: number;
  readonly counts: BreakerIntakeCounts = {
    heartbeat: 0,
    late: 0,
    slow: 0,
    flushedRows: 0,
    replayedRows: 0,
    flushFailures: 0,
    buffered: 0,
  };

  constructor(
    private readonly deps: BreakerIntakeDeps,
    private readonly opts: BreakerIntakeOptions = {},
  ) {
    this.flushMs = opts.flushMs ?? HEARTBEAT_FLUSH_MS;
  }

  /**
   * Records one breaker report: a heartbeat in Redis and the flush buffer, anything else through
   * the transactional path. Throws BUDGET_UNAVAILABLE when the project's Redis cannot answer.
   */
  async report(i: BreakerReportInput): Promise<BreakerReportPath> {
    if (this.closed) throw new Error("breaker intake closed");
    const nowMs = Date.now();
    const reportedMs = i.reportedAt.getTime();
    if (!Number.isFinite(reportedMs)) throw invalid("reported_at is not a valid instant");
    if (reportedMs > nowMs + BREAKER_REPORT_MAX_FUTURE_MS) {
      throw invalid("reported_at must not be more than 5 minutes in the future");
    }
    const field = snapshotField(i.provider, i.sdkInstanceId);
    const [verdict, judgedAt] = await this.judge(i.projectId, field, i.state, reportedMs);
    if (verdict === 1) {
      this.counts.heartbeat++;
      this.buffer({
        projectId: i.projectId,
        provider: i.provider,
        sdkInstanceId: i.sdkInstanceId,
        state: i.state,
        failureCount: i.failureCount,
        successCount: i.successCount,
        reportedAt: i.reportedAt,
        receivedAt: new Date(judgedAt),
      });
      return "heartbeat";
    }
    if (verdict === 2) {
      this.counts.late++;
      return "late";
    }
    this.counts.slow++;
    try {
      // recordBreakerReports stores what it committed in Redis before it answers.
      const r = await this.transactional(i);
      return r.transition ? "transition" : r.applied ? "applied" : "unchanged";
    } finally {
      this.lift(i.projectId, field);
    }
  }

  /**
   * The Redis verdict on one report, and the time it was judged at. The reports of one turn of the
   * event loop go to Redis as one script call per project (like the check's CHECK_MANY), in
   * arrival order.
   */
  private judge(
    projectId: string,
    field: string,
    state: string,
    reportedMs: number,
  ): Promise<[number, number]> {
    return new Promise((resolve, reject) => {
      let group = this.judging.get(projectId);
      if (!group) {
        group = [];
        this.judging.set(projectId, group);
      }
      group.push({ field, state, reportedMs, resolve, reject });
      if (!this.judgeScheduled) {
        this.judgeScheduled = true;
        setImmediate(this.sendJudgements);
      }
    });
  }

  private readonly sendJudgements = () => {
    this.judgeScheduled = false;
    const groups = this.judging;
    this.judging = new Map();
    const now = Date.now();
    const head = [
      String(now),
      String(now - this.deps.config.BREAKER_STALE_SECONDS * 1000),
      String(BUSY_LAPSE_MS),
      String(SNAPSHOT_KEY_TTL_MS),
    ];
    for (const [projectId, items] of groups) {
      const keys = fleetKeys(projectId);
      const args = [...head];
      for (const it of items) args.push(it.field, it.state, String(it.reportedMs));
      runBudgetScript(this.deps.redis, BREAKER_REPORT_SCRIPT, [keys.snap, keys.busy], args).then(
        (reply) => {
          const verdicts = reply as number[];
          for (const [n, it] of items.entries()) it.resolve([Number(verdicts[n]), now]);
        },
        (err: unknown) => {
          for (const it of items) it.reject(err);
        },
      );
    }
    // This runs from a setImmediate: write the turn's scripts now, not a turn later.
    writeCorkedNow(this.deps.redis);
  };

  /**
   * The transactional path, batched: reports that arrive while transactions are in flight join the
   * next one (recordBreakerReports: the same rules and results as one by one, in arrival order).
   * An outage's burst of transitions then costs a few statements per batch, not a transaction each.
   */
  private transactional(i: BreakerReportInput): Promise<BreakerReportResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ i, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.pumpScheduled || this.inFlight >= MAX_TRANSACTIONS_IN_FLIGHT || this.waiting.length === 0)
      return;
    this.pumpScheduled = true;
    // One turn of the event loop: the reports of this turn's requests share a transaction.
    setImmediate(() => {
      this.pumpScheduled = false;
      while (this.inFlight < MAX_TRANSACTIONS_IN_FLIGHT && this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BREAKER_BATCH);
        this.inFlight++;
        this.runBatch(batch).finally(() => {
          this.inFlight--;
          this.pump();
        });
      }
    });
  }

  private async runBatch(batch: Waiting[]): Promise<void> {
    try {
      const results = await recordBreakerReports(
        this.deps,
        batch.map((b) => b.i),
        { background: true },
      );
      for (const [n, b] of batch.entries()) b.resolve(results[n]!);
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      // One report may be what failed (its project deleted meanwhile, say): each on its own, so
      // only that one is refused.
      for (const b of batch) {
        await recordBreakerReports(this.deps, [b.i], { background: true }).then(
          (r) => b.resolve(r[0]!),
          (e: unknown) => b.reject(e),
        );
      }
    }
  }

  /**
   * Lifts a slow report's busy mark. Best effort: a lost lift leaves a mark that lapses, and until
   * then the instance's reports take the slow path.
   */
  private lift(projectId: string, field: string): void {
    let fields = this.lifting.get(projectId);
    if (!fields) {
      fields = [];
      this.lifting.set(projectId, fields);
    }
    fields.push(field);
    if (!this.liftScheduled) {
      this.liftScheduled = true;
      setImmediate(this.sendLifts);
    }
  }

  /** The lifts of one turn of the event loop: one script call per project (a burst answers thousands). */
  private readonly sendLifts = () => {
    this.liftScheduled = false;
    const groups = this.lifting;
    this.lifting = new Map();
    for (const [projectId, fields] of groups) {
      runBudgetScript(this.deps.redis, BREAKER_LIFT_SCRIPT, [fleetKeys(projectId).busy], fields).catch(
        (err: unknown) => this.deps.log.warn({ err, projectId }, "breaker busy marks not lifted; they lapse"),
      );
    }
    writeCorkedNow(this.deps.redis);
  };

  /**
   * Buffers a heartbeat for the next flush (or puts back one a flush could not write), unless a
   * newer one of the same instance is already waiting.
   */
  private buffer(h: Heartbeat): void {
    const k = keyOf(h.projectId, h.provider, h.sdkInstanceId);
    const had = this.pending.get(k);
    if (had && had.reportedAt.getTime() >= h.reportedAt.getTime()) return;
    this.pending.set(k, h);
    this.counts.buffered = this.pending.size;
    if (this.timer === null && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes every buffered heartbeat now (also what close() does). Never throws. */
  flush(): Promise<void> {
    if (this.flushing) {
      // One flush at a time; whatever arrives meanwhile waits for the next one.
      return this.flushing.then(() => (this.pending.size > 0 ? this.flush() : undefined));
    }
    if (this.pending.size === 0) return Promise.resolve();
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.counts.buffered = 0;
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async write(batch: Heartbeat[]): Promise<void> {
    const started = performance.now();
    // Each chunk's statement locks its rows in the one order every breaker writer uses (writeChunk).
    let written = 0;
    const refused: Heartbeat[] = [];
    let failed = false;
    for (let at = 0; at < batch.length; at += FLUSH_CHUNK) {
      const chunk = batch.slice(at, at + FLUSH_CHUNK);
      try {
        const done = await this.writeChunk(chunk);
        written += done.size;
        for (const h of chunk) {
          if (!done.has(keyOf(h.projectId, h.provider, h.sdkInstanceId))) refused.push(h);
        }
      } catch (err) {
        failed = true;
        this.counts.flushFailures++;
        this.deps.log.warn({ err, rows: chunk.length }, "heartbeat flush failed; kept for the next one");
        for (const h of chunk) this.buffer(h);
      }
    }
    this.counts.flushedRows += written;
    const replayed = await this.replay(refused);
    this.opts.onFlush?.({
      rows: batch.length,
      written,
      replayed,
      ms: performance.now() - started,
      failed,
    });
  }

  /** One guarded multi-row UPDATE; the keys of the rows it wrote. */
  private async writeChunk(chunk: Heartbeat[]): Promise<Set<string>> {
    const n = chunk.length;
    const projects = new Array<string>(n);
    const providers = new Array<string>(n);
    const instances = new Array<string>(n);
    const states = new Array<string>(n);
    const failures = new Array<number>(n);
    const successes = new Array<number>(n);
    const reported = new Array<string>(n);
    const received = new Array<string>(n);
    for (let j = 0; j < n; j++) {
      const h = chunk[j]!;
      projects[j] = h.projectId;
      providers[j] = h.provider;
      instances[j] = h.sdkInstanceId;
      states[j] = h.state;
      failures[j] = h.failureCount;
      successes[j] = h.successCount;
      reported[j] = h.reportedAt.toISOString();
      received[j] = h.receivedAt.toISOString();
    }
    const statement = {
      name: "bw-breaker-heartbeats",
      // The rows are locked first in the order every breaker transaction locks them
      // (recordBreakerReports), so a flush and a burst of transitions cannot deadlock.
      text: `WITH v AS (
          SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int4[], $6::int4[],
                               $7::timestamptz[], $8::timestamptz[]) AS v(p, prov, inst, st, f, sc, r, rcv)
        ), locked AS (
          SELECT s.project_id, s.provider, s.sdk_instance_id
          FROM breaker_snapshots s
          JOIN v ON s.project_id = v.p AND s.provider = v.prov AND s.sdk_instance_id = v.inst
          WHERE s.state = v.st::"CircuitState" AND s.reported_at < v.r
          ORDER BY s.project_id COLLATE "C", s.provider COLLATE "C", s.sdk_instance_id COLLATE "C"
          FOR UPDATE OF s
        )
        UPDATE breaker_snapshots s
        SET failure_count = v.f, success_count = v.sc, reported_at = v.r, received_at = GREATEST(s.received_at, v.rcv)
        FROM locked, v
        WHERE s.project_id = locked.project_id AND s.provider = locked.provider AND s.sdk_instance_id = locked.sdk_instance_id
          AND v.p = locked.project_id AND v.prov = locked.provider AND v.inst = locked.sdk_instance_id
          AND s.state = v.st::"CircuitState" AND s.reported_at < v.r
        RETURNING s.project_id, s.provider, s.sdk_instance_id`,
      values: [projects, providers, instances, states, failures, successes, reported, received],
    };
    let res: { rows: { project_id: string; provider: string; sdk_instance_id: string }[] };
    try {
      res = await this.deps.pg.query(statement);
    } catch (err) {
      // Two flushers of one instance in another order (a deadlock) or a serialization hiccup: once more.
      const code = (err as { code?: string }).code;
      if (code !== "40P01" && code !== "40001") throw err;
      res = await this.deps.pg.query(statement);
    }
    return new Set(res.rows.map((r) => keyOf(r.project_id, r.provider, r.sdk_instance_id)));
  }

  /**
   * Rows the guard refused: Postgres holds another state or a newer report than the heartbeat
   * assumed. The transactional path decides (a late report changes nothing; a real change is
   * recorded with its transition, episode and events).
   */
  private async replay(refused: Heartbeat[]): Promise<number> {
    if (refused.length === 0) return 0;
    let next = 0;
    let replayed = 0;
    const worker = async () => {
      while (next < refused.length) {
        const h = refused[next++]!;
        try {
          // Redis follows what Postgres now holds: recordBreakerReport settles it.
          await recordBreakerReport(this.deps, {
            projectId: h.projectId,
            provider: h.provider,
            sdkInstanceId: h.sdkInstanceId,
            state: h.state,
            failureCount: h.failureCount,
            successCount: h.successCount,
            reportedAt: h.reportedAt,
          });
          replayed++;
        } catch (err) {
          h.attempts = (h.attempts ?? 0) + 1;
          if (h.attempts >= MAX_REPLAY_ATTEMPTS) {
            this.deps.log.error({ err, projectId: h.projectId }, "refused heartbeat dropped after retries");
          } else {
            this.deps.log.warn({ err, projectId: h.projectId }, "refused heartbeat not replayed; kept");
            this.buffer(h);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(REPLAY_CONCURRENCY, refused.length) }, worker));
    this.counts.replayedRows += replayed;
    return replayed;
  }

  /** Stops the timer and writes what is buffered (bounded by the caller). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}
