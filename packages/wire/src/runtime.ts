import type { Config } from "@breakwater/config";
import {
  type BudgetDeps,
  type BudgetPricing,
  budgetPricingFromCatalogue,
  createAdmissionLimiter,
  createApiKeyAuthenticator,
  createBudgetRedis,
  createEntitlementCache,
  createKeyUsageTracker,
  createLogger,
  createThresholdWatcher,
  type EventPricing,
  type IngestEvent,
  InvalidationBus,
  KnownTagValues,
  type LeaseDeps,
  loadPriceCatalogue,
  PriceCatalogue,
  PriceCatalogueHolder,
  recordIngestedSpend,
  SEED_PRICE_CARDS,
  subscribeToPriceCatalogueChanges,
  type TokenDetailsInput,
} from "@breakwater/core";
import { sharedDb } from "@breakwater/db";
import { createJobsClient } from "@breakwater/queue";
import { Redis } from "ioredis";
import pg from "pg";
import type { Logger } from "pino";
import type { WireResult } from "./errors";
import type { WireContext } from "./handlers/context";
import { dispatch, fetchRoute, type RouteName } from "./handlers/router";
import type { WireRequest } from "./http";
import { TOKEN_KEYS } from "./schemas/common";

export interface WireRuntime {
  /** The clients and caches every handler is given. */
  ctx: WireContext;
  /** Routes one request (the lean Node server). */
  dispatch(req: WireRequest): Promise<WireResult>;
  /** A Next.js route handler for one endpoint, or for the whole table (`dispatch`). */
  fetch(name: RouteName | "dispatch"): (req: Request) => Promise<Response>;
  log: Logger;
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

function tokenDetailsOf(e: IngestEvent): TokenDetailsInput {
  const td = (e.token_details ?? { input_tokens: e.input_tokens, output_tokens: e.output_tokens }) as Record<
    string,
    unknown
  >;
  const out = {} as Record<string, number>;
  for (const k of TOKEN_KEYS) out[k] = typeof td[k] === "number" ? (td[k] as number) : 0;
  return out as unknown as TokenDetailsInput;
}

/**
 * Event pricing for ingest: served calls at their actual token cost; denied calls at what the
 * check would have reserved (input at the input rate plus the output bound at the output rate).
 * An aggregate receipt prices its average call and multiplies, so long-context brackets follow
 * the per-call size, not the sum.
 */
export function eventPricing(pricing: BudgetPricing, defaultOutputBound: number): EventPricing {
  return {
    actualCostNanos: (e) =>
      pricing.callCostNanos({
        provider: e.provider,
        model: e.model,
        modality: e.modality,
        tokenDetails: tokenDetailsOf(e),
        mediaUsage: (e.media_usage as never) ?? null,
        serviceTier: e.service_tier ?? null,
        providerRegion: e.provider_region ?? null,
      }),
    avoidedCostNanos: (e) => {
      const count = Math.max(1, e.receipt_aggregate_count ?? 1);
      const input = e.receipt_pricing_input_tokens ?? e.input_tokens;
      const per = pricing.reservationNanos({
        provider: e.provider,
        model: e.model,
        modality: e.modality,
        estimatedInputTokens: Math.round(input / count),
        outputTokenBound: e.estimated_output_bound ?? defaultOutputBound,
      });
      return per === null ? null : per * BigInt(count);
    },
  };
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
  const redis = createBudgetRedis(config.REDIS_URL, { enableAutoPipelining: true });
  const subscriber = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
  redis.on("error", (err) => log.debug({ err }, "budget Redis error"));
  subscriber.on("error", (err) => log.debug({ err }, "pub/sub Redis error"));

  const bootWait = opts.redisBootWaitMs ?? 3000;
  await within(
    new Promise<void>((resolve) => {
      if (redis.status === "ready") resolve();
      else redis.once("ready", () => resolve());
    }),
    bootWait,
  );
  const bus = new InvalidationBus({ publisher: redis, subscriber, log });
  await within(
    bus.start().catch((err: unknown) => log.warn({ err }, "invalidation bus not started")),
    bootWait,
  );

  let holder: PriceCatalogueHolder;
  let unsubscribePrices: (() => Promise<void>) | undefined;
  if (opts.catalogue) {
    holder = new PriceCatalogueHolder(async () => opts.catalogue!, opts.catalogue);
  } else {
    const load = async () => {
      const loaded = await loadPriceCatalogue(db);
      // An unseeded database still prices the well-known models instead of calling everything unpriced.
      return loaded.size > 0 ? loaded : PriceCatalogue.fromCards(SEED_PRICE_CARDS);
    };
    holder = await PriceCatalogueHolder.create(load);
    unsubscribePrices = await within(subscribeToPriceCatalogueChanges(subscriber, holder, { log }), bootWait);
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

  const ctx: WireContext = {
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
    fleet: { db, config, log, redis, jobs },
    thresholds,
  };

  return {
    ctx,
    dispatch: (req) => dispatch(ctx, req),
    fetch: (name) => fetchRoute(ctx, name),
    log,
    async close() {
      auth.stop();
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
      subscriber.disconnect();
      redis.disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
