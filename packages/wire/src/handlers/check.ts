import { checkBudget, computePriceHints, type ProviderId } from "@breakwater/core";
import { rawJson } from "../errors";
import { fastCheckRequest } from "../schemas/fast-check-request";
import { type CheckRequest, checkRequest } from "../schemas/requests";
import { serializeCheckResponse } from "../serialize-check";
import { BODY_LIMITS, gate, type Handler, validate } from "./gate";

/** POST /api/v1/budgets/check (spec §1): the budget verdict, reserving the call's estimate. */
export const check: Handler = async (ctx, req) => {
  const { key, body, policy } = await gate(ctx, req, { limit: BODY_LIMITS.check });
  const input: CheckRequest = fastCheckRequest(body) ?? validate(checkRequest, body);
  const verdict = await checkBudget(ctx.budget, {
    projectId: key.projectId,
    provider: input.provider,
    model: input.model,
    estimatedInputTokens: input.estimated_input_tokens,
    fallbackProviders: input.fallback_providers,
    fallbackModels: input.fallback_models,
    modality: input.modality,
    // An empty run id names no run (the SDK's schema allows "", the engine does not).
    agentRunId: input.agent_run_id || undefined,
    tags: input.tags ?? undefined,
    uncountedCalls: input.uncounted_calls ?? 0,
    uncountedTokens: input.uncounted_tokens ?? 0,
  });
  const priceHintsVersion = input.price_hints_version === "1";
  const priceHints = priceHintsVersion
    ? (computePriceHints(ctx.prices.current, {
        provider: input.provider as ProviderId,
        model: input.model,
        fallbackProviders: input.fallback_providers as ProviderId[],
        fallbackModels: input.fallback_models,
        estimatedInputTokens: input.estimated_input_tokens,
      }) as Record<string, number>)
    : null;
  return rawJson(
    200,
    serializeCheckResponse(
      verdict,
      key.projectId,
      {
        failoverDirectiveVersion: input.failover_directive_version === "1",
        runDirectiveVersion: input.run_directive_version === "1",
        priceHintsVersion,
        agentRunId: input.agent_run_id || null,
      },
      { priceHints, failoverTuningAllowed: policy.failoverTuningAllowed },
    ),
  );
};
