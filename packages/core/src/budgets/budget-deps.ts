import type { RedisClient } from "@breakwater/queue";
import type { InvalidationBus } from "../cache/invalidating-cache";
import type { Deps } from "../context";
import type { BudgetPricing } from "./budget-pricing";

/**
 * What the budget use cases need: the core deps, the budget Redis client (see createBudgetRedis),
 * pricing, and the invalidation bus that keeps every replica's runtime cache fresh.
 */
export interface BudgetDeps extends Deps {
  redis: RedisClient;
  pricing: BudgetPricing;
  bus?: InvalidationBus;
}

/** Timings of the budget engine (ms). Exposed so tests and operators can reason about them. */
export const BUDGET_TIMINGS = {
  /** Built markers are refreshed by every check; an idle project's counters get rebuilt after this. */
  markerTtlMs: 40 * 86_400_000,
  /** Hold bookkeeping keys live this long after their last write (holds themselves expire sooner). */
  holdsKeyTtlMs: 86_400_000,
  /**
   * A run's lifetime spend counter lives this long after its last write, and a rebuild restores the
   * runs active within the same span: a run idle that long starts its cap over.
   */
  runTtlMs: 35 * 86_400_000,
  /**
   * Fail-open tallies are held, not added to usage: the calls' own metadata events arrive later
   * and are the truth; the hold bridges the gap and then lapses, so nothing is counted twice.
   */
  uncountedHoldMs: 15 * 60_000,
  /** A settled reservation answers replays (new call_id) as duplicates for this long, then 404. */
  settledTtlMs: 60 * 60_000,
  /** Confirmed call ids are remembered this long (the SDK retries confirm for well under a minute). */
  confirmedTtlMs: 60 * 60_000,
  /** A confirm's provisional amount waits this long for the call's metadata event to replace it. */
  provisionalTtlMs: 60 * 60_000,
  /** Calls whose events moved the counters: a later confirm must not add them again. */
  ingestedCallTtlMs: 60 * 60_000,
  /** Events already applied (replayed batches, rebuild stragglers). */
  seenEventTtlMs: 15 * 60_000,
  /** A rebuild lock outlives any sane rebuild; a crashed holder frees it by expiry. */
  rebuildLockMs: 15_000,
  /** How long a check waits for another process's rebuild before answering BUDGET_UNAVAILABLE. */
  rebuildWaitMs: 700,
  /** Events received this recently are re-checked after a rebuild (ingests racing the snapshot). */
  rebuildStragglerMs: 120_000,
} as const;
