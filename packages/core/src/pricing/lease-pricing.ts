import { regionMultiplier } from "./cost-of-call";
import { Dec } from "./decimal";
import type { PriceCatalogue } from "./price-catalogue";
import { isLocalLane, type ProviderId } from "./providers";

/** How a model can be funded by a token-denominated lease. */
export type LeaseModelClass = "token_priced" | "zero_rate_model" | "unit_priced_model";

/**
 * Classifies one model for leases: `unit_priced_model` when its card bills per image/second/
 * character (tokens say nothing about its cost); `zero_rate_model` when it costs nothing per token
 * (local lanes, free models) OR has no card at all — an unknown rate cannot fund a token lease
 * (the SDK's contract probe `no-such-model-for-leases` must come back exactly so);
 * `token_priced` otherwise.
 */
export function classifyLeaseModel(
  catalogue: PriceCatalogue,
  provider: ProviderId,
  model: string,
): LeaseModelClass {
  if (isLocalLane(provider)) return "zero_rate_model";
  const resolved = catalogue.resolve(provider, model);
  if (!resolved) return "zero_rate_model";
  if (resolved.card.unit !== "token") return "unit_priced_model";
  const { card } = resolved;
  const worst =
    card.long && card.long.maxTokenRate.cmp(card.standard.maxTokenRate) > 0
      ? card.long.maxTokenRate
      : card.standard.maxTokenRate;
  return card.zero || worst.isZero() ? "zero_rate_model" : "token_priced";
}

export interface LeaseChain {
  provider: ProviderId;
  model: string;
  fallbackProviders?: readonly ProviderId[];
  fallbackModels?: readonly string[];
}

export type LeaseRate =
  | {
      eligible: true;
      /** Worst-case USD per token over the chain, exact decimal string. */
      usdPerToken: string;
      /** The (provider, model) that set the worst case. */
      worst: { provider: ProviderId; model: string };
    }
  | { eligible: false; reason: "zero_rate_model" | "unit_priced_model" };

/**
 * The worst-case per-token rate over a declared chain, for token-denominated leases: for every
 * priced hop, its dearest single token (input, cache read/write or output) in either context
 * bracket, with the endpoint premium its id implies; the maximum over the chain. Standard tier (a
 * lease cannot know the tier a provider will serve). Local and free hops cost nothing and never
 * lower the bound. The chain is ineligible when any hop is media-priced (`unit_priced_model`), any
 * hop is unknown, or no hop has a positive rate (`zero_rate_model`).
 */
export function worstCaseTokenRate(catalogue: PriceCatalogue, chain: LeaseChain): LeaseRate {
  const hops: { provider: ProviderId; model: string }[] = [{ provider: chain.provider, model: chain.model }];
  const fps = chain.fallbackProviders ?? [];
  const fms = chain.fallbackModels ?? [];
  for (let i = 0; i < Math.min(fps.length, fms.length); i++)
    hops.push({ provider: fps[i] as ProviderId, model: fms[i] as string });

  let worst = Dec.ZERO;
  let worstHop = hops[0] as { provider: ProviderId; model: string };
  let unknown = false;
  for (const hop of hops) {
    if (isLocalLane(hop.provider)) continue;
    const resolved = catalogue.resolve(hop.provider, hop.model);
    if (!resolved) {
      unknown = true;
      continue;
    }
    const { card } = resolved;
    if (card.unit !== "token") return { eligible: false, reason: "unit_priced_model" };
    if (card.zero) continue;
    const m = regionMultiplier(card, null, resolved.endpointScope);
    for (const r of [card.standard, card.long]) {
      if (!r) continue;
      const rate = r.maxTokenRate.mul(m);
      if (rate.cmp(worst) > 0) {
        worst = rate;
        worstHop = hop;
      }
    }
  }
  if (unknown || worst.isZero()) return { eligible: false, reason: "zero_rate_model" };
  return { eligible: true, usdPerToken: worst.toString(), worst: worstHop };
}

/** Whole tokens a USD amount buys at a per-token rate (rounded down; 0 for a non-positive amount). */
export function tokensForUsd(usd: string | Dec, usdPerToken: string | Dec): number {
  const amount = Dec.from(usd);
  const rate = Dec.from(usdPerToken);
  if (amount.cmp(Dec.ZERO) <= 0 || rate.cmp(Dec.ZERO) <= 0) return 0;
  return Number(amount.divFloor(rate));
}
