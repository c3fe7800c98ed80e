import type {
  AdmissionLimiter,
  ApiKeyAuthenticator,
  BreakerReportIntake,
  BudgetDeps,
  Deps,
  EntitlementCache,
  Entitlements,
  IngestDeps,
  KeyUsageTracker,
  LeaseDeps,
  PriceCatalogueHolder,
  ThresholdWatcher,
} from "@breakwater/core";
import type { PrismaClient } from "@breakwater/db";
import type { RedisClient } from "@breakwater/queue";
import type pg from "pg";
import type { Logger } from "pino";
import type { WireMetrics } from "../metrics";

/**
 * The process's clients and caches, built once by createWireRuntime and handed to every handler.
 * Plain data: a handler calls the core use case itself (`checkBudget(ctx.budget, …)`).
 */
export interface WireContext {
  log: Logger;
  db: PrismaClient;
  pool: pg.Pool;
  redis: RedisClient;
  auth: ApiKeyAuthenticator;
  usage: KeyUsageTracker;
  entitlements: EntitlementCache;
  admission: AdmissionLimiter;
  prices: PriceCatalogueHolder;
  budget: BudgetDeps;
  /** The budget deps plus the live price catalogue (leases price the declared chain). */
  lease: LeaseDeps;
  ingest: IngestDeps;
  /** Breaker reports write webhook events and hand them to the worker. */
  fleet: Deps;
  /** Breaker reports: heartbeats in Redis and a group-committed flush, changes through `fleet`. */
  breakers: BreakerReportIntake;
  /** Evaluates budget threshold alerts after confirms and ingests (absent: none are evaluated). */
  thresholds?: ThresholdWatcher;
  /** Request counts, latency and backend faults of this process (absent: nothing recorded). */
  metrics?: WireMetrics;
}

/** What the handlers need of a project's entitlements. */
export interface ProjectPolicy {
  /** Requests per second (null = unlimited). */
  admissionRate: number | null;
  failoverTuningAllowed: boolean;
}

const policies = new WeakMap<Entitlements, ProjectPolicy>();
function policyOf(e: Entitlements): ProjectPolicy {
  let p = policies.get(e);
  if (!p) {
    p = { admissionRate: e.admission_rate_per_second, failoverTuningAllowed: e.failover_tuning === true };
    policies.set(e, p);
  }
  return p;
}

/** The project's admission rate and failover tuning; synchronous when the entitlements are cached. */
export function projectPolicy(ctx: WireContext, projectId: string): ProjectPolicy | Promise<ProjectPolicy> {
  const hit = ctx.entitlements.peek(projectId);
  return hit ? policyOf(hit) : ctx.entitlements.get(projectId).then(policyOf);
}
