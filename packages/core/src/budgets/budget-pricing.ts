import { costOfCall, type MediaUsage, regionMultiplier, type TokenDetails } from "../pricing/cost-of-call";
import type { Dec } from "../pricing/decimal";
import type { CompiledRates, PriceCatalogue, ResolvedModel } from "../pricing/price-catalogue";
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
 * One bracket of a reservation as integers: nano-dollars = ceil((a·in + b·out)·m / 10^e) (times
 * 10^-e when e < 0). The same exact rational as estimateCallCost's decimal arithmetic, with the
 * rates, the region multiplier and every power of ten folded in once per resolved model.
 */
interface ReservationBracket {
  a: bigint;
  b: bigint;
  m: bigint;
  e: number;
  div: bigint;
}
interface ReservationPlan {
  standard: ReservationBracket;
  long: ReservationBracket | null;
  threshold: number;
}

function bracketPlan(rates: CompiledRates, multiplier: Dec): ReservationBracket {
  const s = Math.max(rates.input.scale, rates.output.scale);
  const a = rates.input.mantissa * 10n ** BigInt(s - rates.input.scale);
  const b = rates.output.mantissa * 10n ** BigInt(s - rates.output.scale);
  // USD = (a·in + b·out)·m · 10^-(s + 6 + scale(m)); nano-dollars shift that by 10^9.
  const e = s + 6 + multiplier.scale - 9;
  return { a, b, m: multiplier.mantissa, e, div: e > 0 ? 10n ** BigInt(e) : 10n ** BigInt(-e) };
}

// Plans per resolved model: the catalogue memoizes its ResolvedModel objects, and a replaced
// catalogue (an operator's edit) resolves to new objects, so stale plans are never consulted.
const plans = new WeakMap<ResolvedModel, ReservationPlan | null>();

function reservationPlan(resolved: ResolvedModel): ReservationPlan | null {
  let plan = plans.get(resolved);
  if (plan === undefined) {
    const { card } = resolved;
    if (card.zero || card.unit !== "token") plan = null;
    else {
      const multiplier = regionMultiplier(card, null, resolved.endpointScope);
      plan = {
        standard: bracketPlan(card.standard, multiplier),
        long: card.long ? bracketPlan(card.long, multiplier) : null,
        threshold: card.long ? card.long.threshold : Number.POSITIVE_INFINITY,
      };
    }
    plans.set(resolved, plan);
  }
  return plan;
}

/**
 * A check's reservation in nano-dollars, equal to `BigInt(estimateCallCost(…).nanoUsd)` (a unit
 * test compares them over the whole catalogue), without building decimals per call.
 */
export function reservationNanosOf(
  resolved: ResolvedModel,
  estimatedInputTokens: number,
  outputTokenBound: number,
): bigint | null {
  if (resolved.card.zero) return 0n;
  const plan = reservationPlan(resolved);
  if (plan === null) return null;
  const inTokens = Math.max(0, Math.floor(estimatedInputTokens));
  const outTokens = Math.max(0, Math.floor(outputTokenBound));
  const br = plan.long !== null && inTokens > plan.threshold ? plan.long : plan.standard;
  const n = (br.a * BigInt(inTokens) + br.b * BigInt(outTokens)) * br.m;
  let nano: bigint;
  if (br.e <= 0) nano = n * br.div;
  else {
    nano = n / br.div;
    if (n > 0n && n % br.div !== 0n) nano += 1n;
  }
  // CallCost.nanoUsd is a Number: beyond 2^53 the estimate is that float's value.
  return nano <= MAX_SAFE_NANOS ? nano : BigInt(Number(nano));
}

const MAX_SAFE_NANOS = BigInt(Number.MAX_SAFE_INTEGER);

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
      return reservationNanosOf(resolved, q.estimatedInputTokens, q.outputTokenBound);
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
