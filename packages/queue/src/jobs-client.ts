import type { Config } from "@breakwater/config";
import { Queue } from "bullmq";
import { JOBS, type JobName, type JobPayload, parsePayload, queuePrefix } from "./catalogue";
import {
  closeRedis,
  createRedis,
  type RedisClient,
  type RedisRole,
  type RedisTarget,
  suspectSlotMap,
} from "./connection";

export interface EnqueueOptions {
  /** A stable id: while a job with this id is still in Redis, adding it again is a no-op. */
  jobId?: string;
  delayMs?: number;
  /**
   * BullMQ priority: unset jobs are taken first, in order; prioritized ones (1 = highest) only
   * when no unset job waits.
   */
  priority?: number;
}

export type EnsureResult = "present" | "added" | "replaced";

/** Job states as BullMQ counts them, for metrics. */
export type JobCounts = Record<
  "waiting" | "active" | "delayed" | "prioritized" | "failed" | "completed",
  number
>;

/**
 * What core code may do with the queues, without seeing BullMQ. One per process; safe to share.
 */
export interface JobsClient {
  /** Adds a job with its catalogue options; the payload is validated first. */
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts?: EnqueueOptions): Promise<void>;
  /**
   * Adds many jobs of one queue in one round trip (BullMQ's bulk add); each payload is validated
   * first. The same rules per job as `enqueue` (a stable id already in Redis is a no-op).
   */
  enqueueMany<N extends JobName>(
    name: N,
    jobs: readonly { payload: JobPayload<N>; opts?: EnqueueOptions }[],
  ): Promise<void>;
  /**
   * Makes sure a job with this id is pending: adds it when Redis no longer has it (crash, restart,
   * eviction) and replaces it when it already finished (failed after its attempts). Pending,
   * delayed or active jobs are left alone.
   */
  ensure<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    opts: { jobId: string; delayMs?: number; priority?: number },
  ): Promise<EnsureResult>;
  /** Job counts per state of one queue (delayed included). */
  counts(name: JobName): Promise<JobCounts>;
  /** Closes the queues and, when the client created it, the Redis connection. */
  close(): Promise<void>;
}

/** The BullMQ Queue objects of a process, one per catalogue entry, on one shared connection. */
export class QueueSet {
  private readonly queues = new Map<JobName, Queue>();
  constructor(
    readonly config: Pick<Config, "QUEUE_PREFIX">,
    readonly connection: RedisClient,
  ) {}

  get(name: JobName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, {
        connection: this.connection,
        prefix: queuePrefix(this.config, name),
        defaultJobOptions: JOBS[name].options,
      });
      // Errors surface on the awaited calls; the listener keeps an emitted error from crashing the process.
      q.on("error", () => {});
      this.queues.set(name, q);
    }
    return q;
  }

  all(): Queue[] {
    return [...this.queues.values()];
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.all().map((q) => q.close()));
    this.queues.clear();
  }
}

/**
 * A JobsClient on the configured Redis (standalone or cluster). Pass `connection` to share one (the caller then owns and quits it);
 * otherwise one is created for `role` and quit by close() — BullMQ never quits connections it
 * was given.
 */
export function createJobsClient(
  config: Pick<Config, "QUEUE_PREFIX"> & RedisTarget,
  opts: { role?: RedisRole; connection?: RedisClient; timeoutMs?: number } = {},
): JobsClient {
  const role = opts.role ?? "producer";
  const owned = !opts.connection;
  const connection = opts.connection ?? createRedis(config, role, "breakwater-jobs");
  // An unhandled 'error' event would crash the process; failures surface on the awaited commands instead.
  if (owned) connection.on("error", () => {});
  const queues = new QueueSet(config, connection);
  const timeoutMs = opts.timeoutMs ?? (role === "producer" ? 1_000 : 10_000);

  // BullMQ waits for a ready connection before every command, whatever the offline-queue setting,
  // so a producer would hang for the whole outage. Refuse at once while reconnecting, and bound
  // the wait otherwise; a late add that still lands afterwards is harmless (jobIds are stable).
  const guarded = <T>(work: () => Promise<T>): Promise<T> => {
    if (role === "producer" && (connection.status === "reconnecting" || connection.status === "end")) {
      return Promise.reject(new Error(`Redis unavailable (${connection.status})`));
    }
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Unanswered: the queue's master may have hung and been replaced by its replica.
          suspectSlotMap(connection);
          reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  };

  return {
    async enqueue(name, payload, o = {}) {
      const data = parsePayload(name, payload);
      await guarded(() =>
        queues.get(name).add(name, data, { jobId: o.jobId, delay: o.delayMs, priority: o.priority }),
      );
    },

    async enqueueMany(name, jobs) {
      if (jobs.length === 0) return;
      const bulk = jobs.map((j) => ({
        name,
        data: parsePayload(name, j.payload),
        opts: { jobId: j.opts?.jobId, delay: j.opts?.delayMs, priority: j.opts?.priority },
      }));
      await guarded(() => queues.get(name).addBulk(bulk));
    },

    ensure(name, payload, o) {
      const data = parsePayload(name, payload);
      return guarded(() => ensureJob(queues.get(name), name, data, o));
    },

    counts(name) {
      return guarded(() => countJobs(queues.get(name)));
    },

    async close() {
      await queues.close();
      if (owned) await closeRedis(connection);
    },
  };
}

async function ensureJob(
  queue: Queue,
  name: string,
  data: unknown,
  o: { jobId: string; delayMs?: number; priority?: number },
): Promise<EnsureResult> {
  const opts = { jobId: o.jobId, delay: o.delayMs, priority: o.priority };
  const state = await queue.getJobState(o.jobId);
  if (state === "unknown") {
    await queue.add(name, data, opts);
    return "added";
  }
  if (state === "completed" || state === "failed") {
    await queue.remove(o.jobId);
    await queue.add(name, data, opts);
    return "replaced";
  }
  return "present";
}

async function countJobs(queue: Queue): Promise<JobCounts> {
  const c = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "failed", "completed");
  return {
    waiting: c.waiting ?? 0,
    active: c.active ?? 0,
    delayed: c.delayed ?? 0,
    prioritized: c.prioritized ?? 0,
    failed: c.failed ?? 0,
    completed: c.completed ?? 0,
  };
}
