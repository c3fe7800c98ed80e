import { z } from "zod";
import { withRedis } from "../budgets/budget-redis";
import { renderLeaseAnswer } from "./lease-answer";
import { addedChainRate, encodeChain } from "./lease-chain";
import { currentCatalogue, type LeaseAnswer, type LeaseDeps } from "./lease-deps";
import { LEASE_TIMINGS, leaseKeys } from "./lease-keys";
import { RENEW_LEASE_SCRIPT } from "./lua";
import { loadRuntime, runSized, sizingFrame, stoppedVerdict } from "./run-lease-script";

export const renewLeaseInput = z.object({
  projectId: z.string().min(1),
  leaseId: z.string().min(1).max(64),
  holderId: z.string().max(64),
  generation: z.number().int().min(1),
  spentTokens: z.number().int().min(0).default(0),
  reservedTokens: z.number().int().min(0).default(0),
  uncountedCalls: z.number().int().min(0).default(0),
  uncountedTokens: z.number().int().min(0).default(0),
  provider: z.string().min(1).nullish(),
  model: z.string().min(1).nullish(),
  fallbackProviders: z.array(z.string()).default([]),
  fallbackModels: z.array(z.string()).default([]),
  estimatedInputTokens: z.number().int().min(0).default(0),
  runDirective: z.boolean().default(false),
});
export type RenewLeaseInput = z.input<typeof renewLeaseInput>;

/**
 * Renews a lease with generation fencing (spec §5). The current generation gets its successor —
 * same lease id, generation + 1, its answer stored — after the reported spend and fail-open tokens
 * fold in once and the old claim returns; the predecessor of an issued successor gets that stored
 * answer again, byte for byte; any other generation is a conflict; an unknown, foreign, expired or
 * surrendered lease is not found. A re-declared chain is unioned into the lease's (its rate is the
 * max of both), or ends the lease as ineligible.
 */
export async function renewLease(deps: LeaseDeps, raw: RenewLeaseInput): Promise<LeaseAnswer> {
  const input = renewLeaseInput.parse(raw);
  const lk = leaseKeys(input.projectId);
  const recordKey = lk.lease(input.leaseId);
  const run = await withRedis(deps.redis, () => deps.redis.hget(recordKey, "run"), 800);
  if (run === null) return { ok: false, refusal: "not_found" };
  const runtime = await loadRuntime(deps, input.projectId);

  let verdict = stoppedVerdict(runtime, run);
  let rateNanos = "0";
  let chain = "";
  if (input.provider && input.model) {
    const declared = {
      provider: input.provider,
      model: input.model,
      fallbackProviders: input.fallbackProviders,
      fallbackModels: input.fallbackModels,
    };
    chain = encodeChain(declared);
    const rate = addedChainRate(currentCatalogue(deps.catalogue), declared);
    if (verdict === "" && !rate.eligible) verdict = `I:${rate.reason}`;
    else if (rate.eligible) rateNanos = rate.nanosPerToken;
  }
  if (verdict === "" && runtime.tagRules.length > 0) verdict = "I:scoped_rules_present";

  const reply = await runSized(deps, runtime, RENEW_LEASE_SCRIPT, () => {
    const frame = sizingFrame(runtime, {
      nowMs: Date.now(),
      verdict,
      runControl: input.runDirective,
      rateNanos,
      chain,
      perCallTokens: input.estimatedInputTokens + deps.config.DEFAULT_OUTPUT_TOKEN_BOUND,
      leaseRecordKey: recordKey,
      runSetKey: lk.run(run),
    });
    frame.args.push(
      input.leaseId,
      input.holderId,
      String(input.generation),
      String(input.spentTokens),
      String(input.uncountedTokens),
      String(LEASE_TIMINGS.tombstoneMs),
      ...frame.limits,
    );
    return frame;
  });
  if (reply[0] === "N") return { ok: false, refusal: "not_found" };
  if (reply[0] === "C") return { ok: false, refusal: "generation_conflict" };
  return { ok: true, body: renderLeaseAnswer(String(reply[1]), input.projectId) };
}
