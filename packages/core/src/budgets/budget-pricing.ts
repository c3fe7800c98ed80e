import { costOfCall } from "../pricing/cost-of-call";
import { estimateCallCost } from "../pricing/estimate-call-cost";
import type { PriceCatalogue } from "../pricing/price-catalogue";
import { PriceCatalogueHolder } from "../pricing/price-catalogue-holder";
import { isProviderId } from "../pricing/providers";

/**
 * What the budget engine asks of pricing, in nano-dollars. Implemented over the price catalogue
 * (see budgetPricingFromCatalogue); kept as a narrow interface so the hot path depends on three
 * pure in-memory functions and nothing else.
 */
export interface TokenDetailsInput {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cache_creation_5m_tokens: number;
  cache_creation_1h_tokens: number;
  reasoning_tokens: number;
  audio_input_tokens: number;
  audio_output_tokens: number;
  image_input_tokens: number;
  image_output_tokens: number;
  accepted_prediction_tokens: number;
  rejected_prediction_tokens: number;
  tool_use_input_tokens: number;
  is_estimated?: boolean;
}

export interface MediaUsageInput {
  image_count?: number | null;
  generation_count?: number | null;
  input_characters?: number | null;
  video_seconds?: number | null;
  audio_seconds?: number | null;
  resolution?: string | null;
  quality?: string | null;
  is_estimated?: boolean;
}

export interface CallCostQuery {
  provider: string;
  model: string;
  modality: string;
  tokenDetails: TokenDetailsInput;
  mediaUsage?: MediaUsageInput | null;
  serviceTier?: string | null;
  providerRegion?: string | null;
}

export interface BudgetPricing {
  /**
   * A check's reservation: the input estimate at the input rate of the bracket it selects, plus
   * `outputTokenBound` at that bracket's output rate. null = the model cannot be priced.
   */
  reservationNanos(q: {
    provider: string;
    model: string;
    modality: string;
    estimatedInputTokens: number;
    outputTokenBound: number;
  }): bigint | null;
  /**
   * Dollars of fail-open tokens the SDK could not report per call: `tokens` mixes input estimates
   * and output bounds with no split, so they are priced at the model's higher per-token rate.
   * null = unpriced.
   */
  uncountedTokensNanos(q: { provider: string; model: string; tokens: number }): bigint | null;
  /** The actual cost of a served call from its token details (brackets, cache, tiers, regions). null = unpriced. */
  callCostNanos(q: CallCostQuery): bigint | null;
}

/** Where the live catalogue comes from: a fixed catalogue, or a holder that swaps in edits. */
export type CatalogueSource = PriceCatalogue | PriceCatalogueHolder;

function currentCatalogue(source: CatalogueSource): PriceCatalogue {
  return source instanceof PriceCatalogueHolder ? source.current : source;
}

/**
 * The budget engine's pricing over the price catalogue. Reads the source's current catalogue on
 * every call, so an operator's edit re-prices the next check. Pure and in-memory.
 */
export function budgetPricingFromCatalogue(source: CatalogueSource): BudgetPricing {
  const resolve = (provider: string, model: string) =>
    isProviderId(provider) ? currentCatalogue(source).resolve(provider, model) : null;
  return {
    reservationNanos(q) {
      const resolved = resolve(q.provider, q.model);
      if (!resolved) return null;
      const est = estimateCallCost(resolved, {
        estimatedInputTokens: q.estimatedInputTokens,
        outputTokenBound: q.outputTokenBound,
      });
      return est === null ? null : BigInt(est.nanoUsd);
    },
    uncountedTokensNanos(q) {
      const resolved = resolve(q.provider, q.model);
      if (resolved?.card.unit !== "token") return null;
      if (resolved.card.zero) return 0n;
      const rates = resolved.card.standard;
      const worst = rates.output.cmp(rates.input) > 0 ? rates.output : rates.input;
      return worst
        .mulInt(Math.max(0, Math.floor(q.tokens)))
        .shift(6)
        .ceilTo(9);
    },
    callCostNanos(q) {
      const resolved = resolve(q.provider, q.model);
      if (!resolved) return null;
      const cost = costOfCall(resolved, q.tokenDetails, {
        serviceTier: q.serviceTier ?? null,
        region: q.providerRegion ?? null,
        modality: q.modality,
        mediaUsage: q.mediaUsage ?? null,
      });
      return cost === null ? null : BigInt(cost.nanoUsd);
    },
  };
}
