import type { Config } from "@breakwater/config";
import {
  BreakerReportIntake,
  type BudgetDeps,
  budgetPricingFromCatalogue,
  createAdmissionLimiter,
  createApiKeyAuthenticator,
  createBudgetRedis,
  createEntitlementCache,
  createKeyUsageTracker,
  createLogger,
  createThresholdWatcher,
  eventPricing,
  InvalidationBus,
  KnownTagValues,
  type LeaseDeps,
  loadLivePriceCatalogue,
  type PriceCatalogue,
  PriceCatalogueHolder,
  type PromotionWatch,
  recordIngestedSpend,
  subscribeToPriceCatalogueChanges,
  watchPromotedMasters,
} from "@breakwater/core";
import { sharedDb } from "@breakwater/db";
import { createJobsClient, RedisPubSub, whenReady } from "@breakwater/queue";
import pg from "pg";
import type { Logger } from "pino";
import type { WireResult } from "./errors";
import type { WireContext } from "./handlers/context";
import { dispatch, fetchRoute, type RouteName, WIRE_ENDPOINTS } from "./handlers/router";
import type { WireRequest } from "./http";
import { createWireMetrics, type WireMetrics } from "./metrics";

export interface WireRuntime {
  /** The clients and caches every handler is given. */
  ctx: WireContext;
  /** Routes one request (the lean Node server). */
  dispatch(req: WireRequest): Promise<WireResult>;
  /** A Next.js route handler for one endpoint, or for the whole table (`dispatch`). */
  fetch(name: RouteName | "dispatch"): (req: Request) => Promise<Response>;
  log: Logger;
  /** This process's SDK API metrics (requests, latency, backend faults); its registry is scraped. */
  metrics: WireMetrics;
  /** On a Redis Cluster: sweeps the budget markers of a replica promoted to master (see core). */
  promotions: PromotionWatch;
  /** Flushes pending key usage and admission counts, then closes every connection it opened. */
  close(): Promise<void>;
}

export interface WireRuntimeOptions {
  logger?: Logger;
  /** A fixed catalogue (tests); by default the stored catalogue, re-loaded on announced edits. */
  catalogue?: PriceCatalogue;
  /** Milliseconds to wait for Redis at boot before serving anyway (checks then answer 503). */
  redisBootWaitMs?: number;
}

function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
}

/**
 * Builds the SDK API of one process: its Postgres pool, its Redis clients (budget commands fail
 * fast; pub/sub on its own connection), the invalidation bus and every in-process cache, bound to
 * the core use cases. The Next.js routes and the lean Node server both serve `handlers`.
 */
export async function createWireRuntime(config: Config, opts: WireRuntimeOptions = {}): Promise<WireRuntime> {
  const log = opts.logger ?? createLogger(config, "sdk-api");
  const db = sharedDb(config.DATABASE_URL);
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 10 });
  pool.on("error", (err) => log.warn({ err }, "idle Postgres connection failed"));
  // Commands issued in the same tick share one socket write: far fewer syscalls under load.
  // Standalone Redis or a Cluster (REDIS_CLUSTER_NODES), from the one client factory.
  const redis = createBudgetRedis(config, { enableAutoPipelining: true });
  redis.on("error", (err) => log.debug({ err }, "budget Redis error"));
  // A replica promoted to master may lack the old master's last writes: its projects' counters
  // are rebuilt from Postgres (a no-op on standalone Redis).
  const promotions = watchPromotedMasters(redis, log);
  // Subscriptions (sharded channels on a cluster) on connections of their own; publishes go
  // through the budget client.
  const pubsub = new RedisPubSub({
    target: config,
    client: redis,
    log,
    connectionName: "breakwater-sdk-pubsub",
  });

  const bootWait = opts.redisBootWaitMs ?? 3000;
  await whenReady(redis, bootWait);
  const bus = new InvalidationBus({ publisher: redis, pubsub, log });
  await within(
    bus.start().catch((err: unknown) => log.warn({ err }, "invalidation bus not started")),
    bootWait,
  );

  let holder: PriceCatalogueHolder;
  let unsubscribePrices: (() => Promise<void>) | undefined;
  if (opts.catalogue) {
    holder = new PriceCatalogueHolder(async () => opts.catalogue!, opts.catalogue);
  } else {
    holder = await PriceCatalogueHolder.create(() => loadLivePriceCatalogue(db));
    unsubscribePrices = await within(
      subscribeToPriceCatalogueChanges(pubsub, holder, { log }).catch((err: unknown) => {
        log.warn({ err }, "price catalogue changes not subscribed");
        return undefined;
      }),
      bootWait,
    );
  }
  const pricing = budgetPricingFromCatalogue(holder);
  const budgetDeps: BudgetDeps = { db, config, log, redis, pricing, bus };
  // Breaker transitions and threshold alerts that fire are handed to the worker at once (jobId =
  // event id); without this the outbox sweeper would still deliver them, but seconds later.
  const jobs = createJobsClient(config);
  // Thresholds are judged after spend is recorded, in the background: the check never pays for them.
  const thresholds = createThresholdWatcher({ ...budgetDeps, jobs });

  // Keys outside the in-process set of live key hashes are refused without I/O (a flood of made-up
  // keys must not reach Postgres or evict real keys from the cache).
  const auth = createApiKeyAuthenticator({ db, bus, log, knownKeys: true });
  await within(auth.start(), bootWait);
  const usage = createKeyUsageTracker({ db, log });
  const entitlements = createEntitlementCache({ db, bus, log });
  const admission = createAdmissionLimiter({ redis, log });
  const knownTags = new KnownTagValues();
  const ingestDeps = {
    pg: pool,
    log,
    knownTags,
    pricing: eventPricing(pricing, config.DEFAULT_OUTPUT_TOKEN_BOUND),
    recordSpend: async (projectId: string, items: Parameters<typeof recordIngestedSpend>[2]) => {
      await recordIngestedSpend(budgetDeps, projectId, items);
      thresholds.touch(projectId);
    },
  };

  const fleet = { db, config, log, redis, jobs };
  const breakers = new BreakerReportIntake({ ...fleet, pg: pool });

  const metrics = createWireMetrics(WIRE_ENDPOINTS);
  metrics.watchBreakers(breakers.counts);
  const ctx: WireContext = {
    metrics,
    log,
    db,
    pool,
    redis,
    auth,
    usage,
    entitlements,
    admission,
    prices: holder,
    budget: budgetDeps,
    lease: { ...budgetDeps, catalogue: holder } satisfies LeaseDeps,
    ingest: ingestDeps,
    fleet,
    breakers,
    thresholds,
  };

  return {
    ctx,
    dispatch: (req) => dispatch(ctx, req),
    fetch: (name) => fetchRoute(ctx, name),
    log,
    metrics,
    promotions,
    async close() {
      promotions.stop();
      auth.stop();
      // Buffered heartbeats' last-seen times reach Postgres before the pool closes.
      await within(breakers.close(), 3_000);
      await within(thresholds.idle(), 1_000);
      await Promise.allSettled([usage.stop(), within(admission.stop(), 500)]);
      // Unsubscribing waits on a connection that may be down: bounded, then dropped.
      await within(unsubscribePrices?.().catch(() => undefined) ?? Promise.resolve(), 500);
      await within(
        bus.stop().catch(() => undefined),
        500,
      );
      await within(
        jobs.close().catch(() => undefined),
        500,
      );
      await within(pubsub.close(), 500);
      redis.disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
