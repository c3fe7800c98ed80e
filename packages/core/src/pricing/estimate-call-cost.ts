import { bracketFor, type CallCost, regionMultiplier, toCallCost } from "./cost-of-call";
import { Dec } from "./decimal";
import type { CompiledCard, ResolvedModel } from "./price-catalogue";

/** Output tokens assumed for a reservation when the project configures none (config DEFAULT_OUTPUT_TOKEN_BOUND). */
export const DEFAULT_OUTPUT_TOKEN_BOUND = 1024;

export interface EstimateInput {
  estimatedInputTokens: number;
  /** Output tokens to reserve for; the deployment's DEFAULT_OUTPUT_TOKEN_BOUND unless the caller knows better. */
  outputTokenBound?: number;
}

/**
 * The cost a budget check reserves: estimated input × input rate + output bound × output rate, at
 * the bracket selected by the input estimate, list-price tier (the check does not know the tier),
 * including the endpoint-scope premium the model id implies. Null for media-unit cards (the check
 * carries no reliable media quantity) — the caller treats that as unpriced. Local lanes: 0.
 */
export function estimateCallCost(
  target: ResolvedModel | CompiledCard,
  input: EstimateInput,
): CallCost | null {
  const card = "card" in target ? target.card : target;
  const scope = "card" in target ? target.endpointScope : null;
  if (card.zero) return toCallCost(Dec.ZERO, "standard", Dec.ONE, "standard");
  if (card.unit !== "token") return null;
  const inTokens = Math.max(0, Math.floor(input.estimatedInputTokens));
  const outTokens = Math.max(0, Math.floor(input.outputTokenBound ?? DEFAULT_OUTPUT_TOKEN_BOUND));
  const { rates, long } = bracketFor(card, inTokens);
  const multiplier = regionMultiplier(card, null, scope);
  const usd = rates.input.mulInt(inTokens).add(rates.output.mulInt(outTokens)).shift(6).mul(multiplier);
  return toCallCost(usd, long ? "long" : "standard", multiplier, "standard");
}
