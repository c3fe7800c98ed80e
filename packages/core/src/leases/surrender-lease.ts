import { z } from "zod";
import { BUDGET_TIMINGS } from "../budgets/budget-deps";
import { budgetKeys } from "../budgets/redis-keys";
import type { LeaseDeps, LeaseRefusal } from "./lease-deps";
import { LEASE_TIMINGS, leaseKeys } from "./lease-keys";
import { SURRENDER_LEASE_SCRIPT } from "./lua";
import { runLease } from "./run-lease-script";

export const surrenderLeaseInput = z.object({
  projectId: z.string().min(1),
  leaseId: z.string().min(1).max(64),
  holderId: z.string().max(64),
  generation: z.number().int().min(1),
  spentTokens: z.number().int().min(0).default(0),
});
export type SurrenderLeaseInput = z.input<typeof surrenderLeaseInput>;

export type SurrenderOutcome = { ok: true; releasedTokens: number } | { ok: false; refusal: LeaseRefusal };

/**
 * Surrenders a lease (spec §5): the reported spend folds in once, the outstanding claim returns
 * and its tokens are `releasedTokens`. Idempotent: a repeat, or a lease that already expired or
 * was ended by a renewal, releases 0. An unknown or foreign lease is not found; a generation that
 * is neither the current one nor the one a refusing renewal ended is a conflict.
 */
export async function surrenderLease(deps: LeaseDeps, raw: SurrenderLeaseInput): Promise<SurrenderOutcome> {
  const input = surrenderLeaseInput.parse(raw);
  const k = budgetKeys(input.projectId);
  const lk = leaseKeys(input.projectId);
  const now = Date.now();
  const reply = (await runLease(
    deps,
    SURRENDER_LEASE_SCRIPT,
    [k.built, k.holds, k.holdRecords, k.heldSums, lk.index, lk.lease(input.leaseId)],
    [
      String(now),
      input.holderId,
      String(input.generation),
      String(input.spentTokens),
      String(now + BUDGET_TIMINGS.uncountedHoldMs),
      String(LEASE_TIMINGS.tombstoneMs),
      input.leaseId,
    ],
  )) as (string | number)[];
  if (reply[0] === "N") return { ok: false, refusal: "not_found" };
  if (reply[0] === "C") return { ok: false, refusal: "generation_conflict" };
  return { ok: true, releasedTokens: Math.max(0, Number(reply[1])) };
}
