import { Dec } from "../pricing/decimal";
import { worstCaseTokenRate } from "../pricing/lease-pricing";
import type { PriceCatalogue } from "../pricing/price-catalogue";
import { isLocalLane, isProviderId, type ProviderId } from "../pricing/providers";

export interface DeclaredChain {
  provider: string;
  model: string;
  fallbackProviders: readonly string[];
  fallbackModels: readonly string[];
}

export type ChainRate =
  | { eligible: true; nanosPerToken: string }
  | { eligible: false; reason: "zero_rate_model" | "unit_priced_model" };

/** The chain as the lease record keeps it: "provider<TAB>model" per hop, deduplicated, LF-joined. */
export function encodeChain(chain: DeclaredChain): string {
  const items = [`${chain.provider}\t${chain.model}`];
  const n = Math.min(chain.fallbackProviders.length, chain.fallbackModels.length);
  for (let i = 0; i < n; i++) items.push(`${chain.fallbackProviders[i]}\t${chain.fallbackModels[i]}`);
  return [...new Set(items)].join("\n");
}

export function decodeChain(text: string): { provider: string; model: string }[] {
  return text
    .split("\n")
    .filter((s) => s.length > 0)
    .map((s) => {
      const tab = s.indexOf("\t");
      return { provider: s.slice(0, tab), model: s.slice(tab + 1) };
    });
}

const NANOS_PER_USD_DEC = Dec.from("1000000000");

function toNanos(usdPerToken: string): string {
  return Dec.from(usdPerToken).mul(NANOS_PER_USD_DEC).toString();
}

/**
 * The worst-case per-token rate of a declared chain in nano-dollars (spec §5: tokens are priced at
 * the dearest hop, so a lease never funds more than its share). Ineligible as lease pricing says.
 */
export function chainRate(catalogue: PriceCatalogue, chain: DeclaredChain): ChainRate {
  if (!isProviderId(chain.provider)) return { eligible: false, reason: "zero_rate_model" };
  const r = worstCaseTokenRate(catalogue, {
    provider: chain.provider,
    model: chain.model,
    fallbackProviders: chain.fallbackProviders.filter(isProviderId) as ProviderId[],
    fallbackModels: chain.fallbackModels as string[],
  });
  return r.eligible ? { eligible: true, nanosPerToken: toNanos(r.usdPerToken) } : r;
}

/**
 * The rate a renewal's re-declared chain adds to the lease's own (unioned with the max): 0 when
 * every added hop is free or local, ineligible when one is unknown or media-priced.
 */
export function addedChainRate(catalogue: PriceCatalogue, chain: DeclaredChain): ChainRate {
  const r = chainRate(catalogue, chain);
  if (r.eligible || r.reason === "unit_priced_model") return r;
  const hops = decodeChain(encodeChain(chain));
  const unknown = hops.some(
    (h) => !isLocalLane(h.provider) && (!isProviderId(h.provider) || !catalogue.resolve(h.provider, h.model)),
  );
  return unknown ? r : { eligible: true, nanosPerToken: "0" };
}
