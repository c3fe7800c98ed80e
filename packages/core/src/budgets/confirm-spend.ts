import { DomainError } from "../errors";
import { confirmLeaseSpend } from "../leases/confirm-lease-spend";
import { BUDGET_TIMINGS, type BudgetDeps } from "./budget-deps";
import type { MediaUsageInput, TokenDetailsInput } from "./budget-pricing";
import { withRedis } from "./budget-redis";
import { CONFIRM_SCRIPT, runScript } from "./lua";
import { budgetKeys } from "./redis-keys";
import { currentWindows, windowExpireAt } from "./windows";

export interface ConfirmSpendInput {
  projectId: string;
  /** Exactly one of reservationId / leaseId (the wire layer enforces 422). */
  reservationId?: string | null;
  leaseId?: string | null;
  callId?: string | null;
  /** What SERVED the call. */
  provider: string;
  model: string;
  modality: string;
  tokenDetails: TokenDetailsInput;
  mediaUsage?: MediaUsageInput | null;
  serviceTier?: string | null;
  providerRegion?: string | null;
  isProviderFallback?: boolean;
}

export type ConfirmOutcome = "settled" | "duplicate";

const NOT_FOUND_MESSAGE = "Reservation not found or expired";
const MAX_SCRIPT_NANOS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Settles a reservation (spec §2): its estimate leaves the held amount and the actual cost, priced
 * here from token_details (brackets, cache, tier and region multipliers), moves the live counters
 * provisionally until the call's metadata event replaces it. Idempotent: a replayed call_id, or the
 * same reservation under a new call_id, is a "duplicate" that settles nothing. An unknown or
 * expired reservation throws NOT_FOUND "Reservation not found or expired".
 *
 * Lease-funded confirms (`leaseId`) settle only spend beyond the lease's claim: the cost moves the
 * live counters the same way, and the claim shrinks by the call's tokens (see confirmLeaseSpend).
 * A lease the project never had is NOT_FOUND with the same message.
 */
export async function confirmSpend(
  deps: BudgetDeps,
  input: ConfirmSpendInput,
): Promise<{ outcome: ConfirmOutcome }> {
  if (!input.reservationId && !input.leaseId) throw new DomainError("NOT_FOUND", NOT_FOUND_MESSAGE);
  // An unpriced model settles as unpriced: the reservation is released, no dollars move.
  const actual =
    deps.pricing.callCostNanos({
      provider: input.provider,
      model: input.model,
      modality: input.modality,
      tokenDetails: input.tokenDetails,
      mediaUsage: input.mediaUsage ?? null,
      serviceTier: input.serviceTier ?? null,
      providerRegion: input.providerRegion ?? null,
    }) ?? 0n;
  if (!input.reservationId) {
    const td = input.tokenDetails as { input_tokens?: number; output_tokens?: number };
    const outcome = await confirmLeaseSpend(deps, {
      projectId: input.projectId,
      leaseId: input.leaseId!,
      // Without a call id there is nothing to deduplicate on: a fresh one settles it once.
      callId: input.callId ?? crypto.randomUUID(),
      costNanos: actual,
      tokens: (td.input_tokens ?? 0) + (td.output_tokens ?? 0),
    });
    if (outcome === "not_found") throw new DomainError("NOT_FOUND", NOT_FOUND_MESSAGE);
    return { outcome };
  }
  const nowMs = Date.now();
  const windows = currentWindows(new Date(nowMs));
  const keys = budgetKeys(input.projectId);
  const scriptKeys = [
    keys.built,
    keys.holds,
    keys.holdRecords,
    keys.heldSums,
    keys.settled,
    keys.confirmed,
    keys.confirmedExp,
    keys.provisional,
    keys.provisionalExp,
    keys.ingestedCalls,
    keys.usage(windows.daily.key),
    keys.usage(windows.weekly.key),
    keys.usage(windows.monthly.key),
  ];
  const args: (string | number)[] = [
    nowMs,
    input.reservationId!,
    input.callId ?? "",
    (actual > MAX_SCRIPT_NANOS ? MAX_SCRIPT_NANOS : actual).toString(),
    windows.daily.key,
    windows.weekly.key,
    windows.monthly.key,
    windowExpireAt(windows.daily),
    windowExpireAt(windows.weekly),
    windowExpireAt(windows.monthly),
    BUDGET_TIMINGS.runTtlMs,
    BUDGET_TIMINGS.settledTtlMs,
    BUDGET_TIMINGS.confirmedTtlMs,
    BUDGET_TIMINGS.provisionalTtlMs,
  ];
  const outcome = String(
    await withRedis(deps.redis, () => runScript(deps.redis, CONFIRM_SCRIPT, scriptKeys, args), 1_000),
  );
  if (outcome === "not_found") throw new DomainError("NOT_FOUND", NOT_FOUND_MESSAGE);
  return { outcome: outcome === "duplicate" ? "duplicate" : "settled" };
}
