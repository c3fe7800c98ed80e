import type { RedisClient } from "@breakwater/queue";
import { BUDGET_TIMINGS } from "../budgets/budget-deps";
import { withRedis } from "../budgets/budget-redis";
import { runScript } from "../budgets/lua";
import { budgetKeys } from "../budgets/redis-keys";
import { currentWindows, windowExpireAt } from "../budgets/windows";
import { leaseKeys } from "./lease-keys";
import { CONFIRM_LEASE_SCRIPT } from "./lua";

const MAX_SCRIPT_NANOS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A lease-funded confirm (spec §2): the call's cost moves the live counters provisionally (its
 * metadata event replaces it), and the lease's claim shrinks by the call's tokens at the lease rate
 * — so against the budget only spend beyond the claim is new. Replays (same call_id) settle
 * nothing. `not_found` for a lease this project never had (or forgot); an expired lease still
 * settles (its claim is gone, so all of the spend is beyond it).
 */
export async function confirmLeaseSpend(
  deps: { redis: RedisClient },
  input: { projectId: string; leaseId: string; callId: string; costNanos: bigint; tokens: number },
): Promise<"settled" | "duplicate" | "not_found"> {
  const nowMs = Date.now();
  const windows = currentWindows(new Date(nowMs));
  const k = budgetKeys(input.projectId);
  const lk = leaseKeys(input.projectId);
  const keys = [
    k.built,
    k.holds,
    k.holdRecords,
    k.heldSums,
    lk.index,
    lk.lease(input.leaseId),
    k.confirmed,
    k.confirmedExp,
    k.provisional,
    k.provisionalExp,
    k.ingestedCalls,
    k.usage(windows.daily.key),
    k.usage(windows.weekly.key),
    k.usage(windows.monthly.key),
  ];
  const cost =
    input.costNanos > MAX_SCRIPT_NANOS ? MAX_SCRIPT_NANOS : input.costNanos < 0n ? 0n : input.costNanos;
  const args = [
    String(nowMs),
    input.leaseId,
    input.callId,
    cost.toString(),
    String(Math.max(0, Math.floor(input.tokens))),
    windows.daily.key,
    windows.weekly.key,
    windows.monthly.key,
    String(windowExpireAt(windows.daily)),
    String(windowExpireAt(windows.weekly)),
    String(windowExpireAt(windows.monthly)),
    String(BUDGET_TIMINGS.runTtlMs),
    String(BUDGET_TIMINGS.confirmedTtlMs),
    String(BUDGET_TIMINGS.provisionalTtlMs),
  ];
  const out = String(
    await withRedis(deps.redis, () => runScript(deps.redis, CONFIRM_LEASE_SCRIPT, keys, args), 1_000),
  );
  return out === "duplicate" ? "duplicate" : out === "not_found" ? "not_found" : "settled";
}
