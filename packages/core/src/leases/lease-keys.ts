import { budgetPrefix } from "../budgets/redis-keys";

/**
 * Redis keys of run leases. They share the budget counters' `{projectId}` hash tag, so every lease
 * script runs in the project's one cluster slot beside the holds it moves.
 */
export interface LeaseKeys {
  /** ZSET lease id → expiry ms of every live lease of the project (sweeps and the dashboard list). */
  index: string;
  /** HASH of one lease: run, holder, generation, claim bookkeeping and the stored answer. */
  lease(leaseId: string): string;
  /** ZSET lease id → expiry ms of the live leases of one run (the holder cap counts these). */
  run(agentRunId: string): string;
}

export function leaseKeys(projectId: string): LeaseKeys {
  const p = budgetPrefix(projectId);
  return {
    index: `${p}lses`,
    lease: (id) => `${p}lse:${id}`,
    run: (r) => `${p}lrun:${r}`,
  };
}

/** Timings of leases (ms unless named in seconds). */
export const LEASE_TIMINGS = {
  /** A lease lapses server-side this long after its grant or last renewal; its claim returns. */
  expiryMs: 120_000,
  /** What the SDK is told: it stops drawing on a lease this long after receiving it. */
  leaseLengthS: 90,
  /** Base renewal interval before jitter (±15 %). */
  refreshIntervalS: 30,
  refreshJitter: 0.15,
  /** An ended lease still answers surrenders (0) and replays for this long after its last write. */
  tombstoneMs: 60 * 60_000,
} as const;

/** Sizing rules of a grant. */
export const LEASE_SIZING = {
  /** Active holders one run may have at once; one more is refused with 409. */
  holderCap: 16,
  /** A grant is at most this many tokens (renewals top it up). */
  maxGrantTokens: 1_000_000,
  /** Below this many calls' worth of a holder's share, the grant is the whole share and final. */
  finalGrantCalls: 4,
} as const;
