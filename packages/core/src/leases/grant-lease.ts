import { z } from "zod";
import { newId } from "../ids";
import { renderLeaseAnswer } from "./lease-answer";
import { chainRate, encodeChain } from "./lease-chain";
import { currentCatalogue, type LeaseAnswer, type LeaseDeps } from "./lease-deps";
import { LEASE_TIMINGS, leaseKeys } from "./lease-keys";
import { GRANT_LEASE_SCRIPT } from "./lua";
import { loadRuntime, runSized, sizingFrame, stoppedVerdict } from "./run-lease-script";

export const grantLeaseInput = z.object({
  projectId: z.string().min(1),
  agentRunId: z.string().min(1).max(256),
  holderId: z.string().max(64),
  provider: z.string().min(1),
  model: z.string().min(1),
  fallbackProviders: z.array(z.string()).default([]),
  fallbackModels: z.array(z.string()).default([]),
  failOpen: z.boolean().default(true),
  estimatedInputTokens: z.number().int().min(0).default(0),
  runDirective: z.boolean().default(false),
});
export type GrantLeaseInput = z.input<typeof grantLeaseInput>;

/**
 * Grants a run lease (spec §5). Eligibility and stopped runs are settled from the catalogue and the
 * cached runtime; one Lua script then reads the budget, refuses a holder over the run's cap, denies
 * a hard_deny project without room for one call, or sizes the grant — the holder's share of the
 * remaining headroom at the chain's worst-case rate, half of it (capped) or all of it as a final
 * grant when little is left — and holds its claim beside the reservations, atomically.
 */
export async function grantLease(deps: LeaseDeps, raw: GrantLeaseInput): Promise<LeaseAnswer> {
  const input = grantLeaseInput.parse(raw);
  const runtime = await loadRuntime(deps, input.projectId);
  const chain = {
    provider: input.provider,
    model: input.model,
    fallbackProviders: input.fallbackProviders,
    fallbackModels: input.fallbackModels,
  };
  let verdict = stoppedVerdict(runtime, input.agentRunId);
  let rateNanos = "0";
  if (verdict === "") {
    const rate = chainRate(currentCatalogue(deps.catalogue), chain);
    if (runtime.tagRules.length > 0) verdict = "I:scoped_rules_present";
    else if (!rate.eligible) verdict = `I:${rate.reason}`;
    else rateNanos = rate.nanosPerToken;
  }
  const lk = leaseKeys(input.projectId);
  const leaseId = newId("lse");
  const encoded = encodeChain(chain);
  const reply = await runSized(deps, runtime, GRANT_LEASE_SCRIPT, () => {
    const frame = sizingFrame(runtime, {
      nowMs: Date.now(),
      verdict,
      runControl: input.runDirective,
      rateNanos,
      chain: encoded,
      perCallTokens: input.estimatedInputTokens + deps.config.DEFAULT_OUTPUT_TOKEN_BOUND,
      leaseRecordKey: lk.lease(leaseId),
      runSetKey: lk.run(input.agentRunId),
    });
    frame.args.push(
      leaseId,
      input.holderId,
      input.agentRunId,
      input.failOpen ? "1" : "0",
      String(LEASE_TIMINGS.tombstoneMs),
      "",
      ...frame.limits,
    );
    return frame;
  });
  if (reply[0] === "H") return { ok: false, refusal: "holder_cap_exceeded" };
  return { ok: true, body: renderLeaseAnswer(String(reply[1]), input.projectId) };
}
