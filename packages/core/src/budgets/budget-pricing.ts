import { costOfCall, type MediaUsage, type TokenDetails } from "../pricing/cost-of-call";
import { estimateCallCost } from "../pricing/estimate-call-cost";
import type { PriceCatalogue } from "../pricing/price-catalogue";
import { PriceCatalogueHolder } from "../pricing/price-catalogue-holder";
import { isProviderId } from "../pricing/providers";

/** The wire's TokenDetails (13 counters, absent = 0) and MediaUsage, as pricing reads them. */
export type TokenDetailsInput = TokenDetails;
export type MediaUsageInput = MediaUsage;

export interface CallCostQuery {
  provider: string;
  model: string;
  modality: string;
  tokenDetails: TokenDetailsInput;
  mediaUsage?: MediaUsageInput | null;
  serviceTier?: string | null;
  providerRegion?: string | null;
}

/**
 * What the budget engine asks of pricing, in nano-dollars. Implemented over the price catalogue
 * (see budgetPricingFromCatalogue); kept as a narrow interface so the hot path depends on three
 * pure in-memory functions and nothing else.
 */
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
