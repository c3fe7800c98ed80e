import type { Config } from "@breakwater/config";
import type { JobsOptions } from "bullmq";
import { z } from "zod";

/**
 * One entry per kind of job. Each kind has its own queue (named like the job) so that its
 * concurrency, stall handling and depth are independent: a slow receiver can never delay a sweep.
 */
export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** Payloads carry ids, never blobs; the consumer re-parses them with this schema. */
  payload: P;
  /** Options every enqueue of this job gets (attempts, backoff, retention). */
  options: Pick<JobsOptions, "attempts" | "backoff" | "removeOnComplete" | "removeOnFail">;
  /** Recurring jobs: registered by the worker with upsertJobScheduler (id = job name). */
  schedule?: (config: Config) => { every: number };
  /** Jobs one worker process runs at once. */
  concurrency: (config: Config) => number;
}

const define = <D extends JobDefinition>(def: D) => def;

const DAY_S = 24 * 3600;

/** Every job Breakwater runs, declared once. Only jobs with a consumer belong here. */
export const JOBS = {
  "webhook-deliver": define({
    name: "webhook-deliver",
    description:
      "Delivers one webhook event (jobId = event id) through the configured backend; the job delays itself for scheduled retries",
    payload: z.object({ eventId: z.string().regex(/^evt_[0-9a-f]{24}$/) }).strict(),
    options: {
      // Thrown errors only (backend unreachable, Svix 5xx/429, Postgres down): scheduled retries to a
      // receiver are not failures of the job — the job moves itself to delayed instead.
      attempts: 10,
      backoff: { type: "exponential", delay: 1_000 },
      // Completed jobs stay a day so a repeated enqueue with the same jobId stays a no-op.
      removeOnComplete: { age: DAY_S, count: 50_000 },
      removeOnFail: { age: 7 * DAY_S, count: 50_000 },
    },
    concurrency: (config) => config.WEBHOOK_CONCURRENCY,
  }),
  "webhook-outbox-sweep": define({
    name: "webhook-outbox-sweep",
    description: "Re-enqueues undelivered outbox rows whose delivery job a crash or a Redis loss left behind",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    schedule: () => ({ every: 10_000 }),
    concurrency: () => 1,
  }),
  "breaker-stale-sweep": define({
    name: "breaker-stale-sweep",
    description:
      "Closes the open breaker episodes of instances silent for BREAKER_STALE_SECONDS (resolution instance_expired)",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    // A few sweeps per stale window bounds how late an expiry fires (≤ 1/6 of the window, ≤ 30 s).
    schedule: (config) => ({
      every: Math.min(30_000, Math.max(1_000, (config.BREAKER_STALE_SECONDS * 1000) / 6)),
    }),
    concurrency: () => 1,
  }),
  "breaker-prune": define({
    name: "breaker-prune",
    description:
      "Deletes snapshots of SDK instances silent past BREAKER_SNAPSHOT_RETENTION_DAYS (never past the plan's retention_days) and transitions past retention_days, in small batches",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    schedule: () => ({ every: 600_000 }),
    concurrency: () => 1,
  }),
  "incident-evaluate": define({
    name: "incident-evaluate",
    description:
      "Evaluates one provider incident when its minimum duration or quiet period runs out (jobId = pair and instant), so it opens or resolves on time with no report arriving",
    payload: z
      .object({ projectId: z.string().regex(/^proj_[0-9a-f]{24}$/), provider: z.string().min(1).max(64) })
      .strict(),
    options: {
      attempts: 5,
      backoff: { type: "exponential", delay: 1_000 },
      removeOnComplete: { age: 3_600, count: 10_000 },
      removeOnFail: { age: 7 * DAY_S, count: 10_000 },
    },
    concurrency: () => 4,
  }),
  "incident-sweep": define({
    name: "incident-sweep",
    description:
      "Evaluates every unresolved provider incident (and providers with Down instances but none), resolving incidents whose instances recovered or went stale; catches evaluations a crash lost",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    schedule: (config) => ({ every: config.INCIDENT_SWEEP_EVERY_MS }),
    concurrency: () => 1,
  }),
  "price-reprice": define({
    name: "price-reprice",
    description:
      "Re-prices one model's past unpriced events after an operator priced it (jobId = run id), in bounded batches that resume at the run's cursor, then rebuilds the touched hours' rollups",
    payload: z.object({ runId: z.string().regex(/^rpr_[0-9a-f]{24}$/) }).strict(),
    options: {
      attempts: 5,
      backoff: { type: "exponential", delay: 2_000 },
      removeOnComplete: { age: DAY_S, count: 1_000 },
      removeOnFail: { age: 7 * DAY_S, count: 1_000 },
    },
    concurrency: () => 1,
  }),
  "usage-rollup": define({
    name: "usage-rollup",
    description:
      "Rebuilds the hourly usage rollups of every hour that received metadata events since the watermark (late ones included), catching up in bounded chunks",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    // Each step works for at most ~10 s; the schedule keeps the current hour well within 60 s.
    schedule: (config) => ({ every: config.USAGE_ROLLUP_EVERY_MS }),
    concurrency: () => 1,
  }),
  "usage-retention": define({
    name: "usage-retention",
    description:
      "Deletes raw metadata events older than each project's effective retention_days in bounded batches (rollups stay)",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    schedule: (config) => ({ every: config.USAGE_RETENTION_EVERY_MS }),
    concurrency: () => 1,
  }),
  "event-partitions": define({
    name: "event-partitions",
    description:
      "Creates metadata_events' daily partitions ahead (and for days that reached DEFAULT, moving their rows) and drops whole partitions older than every project's effective retention_days",
    payload: z.object({}).strict(),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 500 } },
    // With a week created ahead, hourly runs leave days of slack for a run that could not get its locks.
    schedule: (config) => ({ every: config.USAGE_RETENTION_EVERY_MS }),
    concurrency: () => 1,
  }),
  "audit-retention": define({
    name: "audit-retention",
    description:
      "Deletes audit events older than each organization's effective audit_log_days, in bounded batches",
    payload: z.object({}).strict(),
    options: {
      attempts: 3,
      backoff: { type: "exponential", delay: 60_000 },
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 500 },
    },
    // Retention is counted in days: hourly keeps every log within an hour of its window.
    schedule: () => ({ every: 3_600_000 }),
    concurrency: () => 1,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]["payload"]>;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

/**
 * The BullMQ prefix of a queue: the deployment prefix plus the queue name as a Redis Cluster hash
 * tag, so all keys of one queue land in one slot (BullMQ's Lua scripts need that) while different
 * queues spread over the cluster.
 */
export function queuePrefix(config: Pick<Config, "QUEUE_PREFIX">, name: JobName): string {
  return `${config.QUEUE_PREFIX}:{${name}}`;
}

/** Parses a job payload with its catalogue schema (consumers never trust what Redis holds). */
export function parsePayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  return JOBS[name].payload.parse(data) as JobPayload<N>;
}
