import { Dec } from "./decimal";
import type { CompiledCard, CompiledRates, EndpointScope, ResolvedModel } from "./price-catalogue";
import { type ProviderId, parseServiceTier, type ServiceTier, STANDARD_TIERS } from "./providers";

/** The 13 token counters of the wire's TokenDetails; absent = 0. */
export interface TokenDetails {
  input_tokens?: number;
  output_tokens?: number;
  cached_input_tokens?: number;
  cache_creation_5m_tokens?: number;
  cache_creation_1h_tokens?: number;
  reasoning_tokens?: number;
  audio_input_tokens?: number;
  audio_output_tokens?: number;
  image_input_tokens?: number;
  image_output_tokens?: number;
  accepted_prediction_tokens?: number;
  rejected_prediction_tokens?: number;
  tool_use_input_tokens?: number;
  is_estimated?: boolean;
}

/** The wire's MediaUsage; inner keys may be null. */
export interface MediaUsage {
  image_count?: number | null;
  generation_count?: number | null;
  input_characters?: number | null;
  video_seconds?: number | null;
  audio_seconds?: number | null;
  resolution?: string | null;
  quality?: string | null;
  is_estimated?: boolean;
}

export interface CostOptions {
  /** The tier the provider reported (confirm: closed set; ingest: free string ≤ 32). */
  serviceTier?: string | null;
  /** provider_region of the call (e.g. "eu-west-1"). */
  region?: string | null;
  /** Endpoint scope read from the model id; taken from the ResolvedModel when one is passed. */
  endpointScope?: EndpointScope | null;
  modality?: string | null;
  mediaUsage?: MediaUsage | null;
}

/**
 * How the service tier was applied:
 * - `standard`: list price (no tier, or a tier that is the standard lane under another name);
 * - `applied`: a published multiplier for this tier was applied;
 * - `unpriced_tier`: a valid tier this card publishes no price for — billed at list price;
 * - `unknown_service_tier`: not in the wire's closed ServiceTier set — billed at list price; ingest
 *   may reject the event with that code instead.
 */
export type TierStatus = "standard" | "applied" | "unpriced_tier" | "unknown_service_tier";

/**
 * A priced amount. Units: `usd` is the exact decimal amount in US dollars (a string, never
 * rounded — store it in a numeric column); `nanoUsd` is the same amount in integer nano-dollars
 * (1e-9 USD), rounded UP so counters built from it never undercount; `usdFloat` is for display only.
 */
export interface CallCost {
  usd: string;
  nanoUsd: number;
  usdFloat: number;
  bracket: "standard" | "long" | "unit";
  /** The tier × region multiplier applied, as an exact decimal string ("1", "0.5", "1.925"). */
  multiplier: string;
  tierStatus: TierStatus;
}

/** Service-tier multipliers every card of a provider gets unless the card overrides them. */
export const PROVIDER_TIER_DEFAULTS: Partial<Record<ProviderId, Readonly<Record<string, string>>>> = {
  bedrock: { flex: "0.5", priority: "1.75", optimized: "1.25" },
};

const PROVIDER_TIER_DEFAULTS_DEC = new Map(
  Object.entries(PROVIDER_TIER_DEFAULTS).map(([p, m]) => [
    p,
    new Map(Object.entries(m ?? {}).map(([k, v]) => [k, Dec.from(v)] as const)),
  ]),
);

const count = (n: number | undefined): bigint => {
  if (n === undefined || !Number.isFinite(n) || n <= 0) return 0n;
  return BigInt(Math.floor(n));
};

/** The rates of the bracket selected by `inputTokens` (long only when strictly above the threshold). */
export function bracketFor(card: CompiledCard, inputTokens: number): { rates: CompiledRates; long: boolean } {
  if (card.long && inputTokens > card.long.threshold) return { rates: card.long, long: true };
  return { rates: card.standard, long: false };
}

/** The service-tier multiplier for a card and what kind of tier it was. */
export function tierMultiplier(
  card: CompiledCard,
  serviceTier: string | null | undefined,
): { multiplier: Dec; status: TierStatus } {
  if (serviceTier == null || serviceTier.trim() === "") return { multiplier: Dec.ONE, status: "standard" };
  const tier: ServiceTier | null = parseServiceTier(serviceTier);
  if (tier === null) return { multiplier: Dec.ONE, status: "unknown_service_tier" };
  const own = card.tierMultipliers.get(tier) ?? PROVIDER_TIER_DEFAULTS_DEC.get(card.provider)?.get(tier);
  if (own)
    return {
      multiplier: own,
      status: own.cmp(Dec.ONE) === 0 && STANDARD_TIERS.has(tier) ? "standard" : "applied",
    };
  if (STANDARD_TIERS.has(tier)) return { multiplier: Dec.ONE, status: "standard" };
  return { multiplier: Dec.ONE, status: "unpriced_tier" };
}

/** The region × endpoint-scope multiplier of a card (1 when the card lists neither). */
export function regionMultiplier(
  card: CompiledCard,
  region: string | null | undefined,
  scope: EndpointScope | null | undefined,
): Dec {
  let m = Dec.ONE;
  if (region) {
    const r = card.regionMultipliers.get(region.trim().toLowerCase());
    if (r) m = m.mul(r);
  }
  if (scope) {
    const s = card.regionMultipliers.get(`endpoint:${scope}`);
    if (s) m = m.mul(s);
  }
  return m;
}

/** Wraps an exact USD amount into a CallCost. */
export function toCallCost(
  usd: Dec,
  bracket: CallCost["bracket"],
  multiplier: Dec,
  tierStatus: TierStatus,
): CallCost {
  const nano = usd.ceilTo(9);
  return {
    usd: usd.toString(),
    nanoUsd: Number(nano),
    usdFloat: usd.toNumber(),
    bracket,
    multiplier: multiplier.toString(),
    tierStatus,
  };
}

function unpack(target: ResolvedModel | CompiledCard): {
  card: CompiledCard;
  scope: EndpointScope | null;
  arnRegion: string | null;
} {
  return "card" in target
    ? { card: target.card, scope: target.endpointScope, arnRegion: target.arnRegion }
    : { card: target, scope: null, arnRegion: null };
}

/**
 * The cost of one call from its token details (product.md, "Cost of a call"):
 * uncached input × input + cached reads × cached + 5m/1h cache writes × write rates + output × output,
 * at the bracket selected by input_tokens, times the tier and region multipliers. input_tokens
 * INCLUDES cached reads and cache writes (uncached = input − cached − writes, floored at 0);
 * reasoning, audio and image tokens are already inside their side's total. Media-unit cards bill
 * the MediaUsage quantity instead; a missing quantity makes the call unpriced (null), never $0.
 * Local lanes cost exactly 0. Exact decimal arithmetic throughout. `modality` is informational:
 * the card's unit, not the label, selects the billing basis (a token card bills tokens for any
 * modality; image/audio tokens are priced at the card's text rates).
 */
export function costOfCall(
  target: ResolvedModel | CompiledCard,
  tokens: TokenDetails,
  opts: CostOptions = {},
): CallCost | null {
  const { card, scope, arnRegion } = unpack(target);
  const tier = tierMultiplier(card, opts.serviceTier);
  if (card.zero) return toCallCost(Dec.ZERO, "standard", Dec.ONE, tier.status);
  const multiplier = tier.multiplier.mul(
    regionMultiplier(card, opts.region ?? arnRegion, opts.endpointScope ?? scope),
  );

  if (card.unit !== "token") {
    const base = mediaCost(card, opts.mediaUsage ?? null);
    return base === null ? null : toCallCost(base.mul(multiplier), "unit", multiplier, tier.status);
  }

  const input = count(tokens.input_tokens);
  const cached = count(tokens.cached_input_tokens);
  const w5 = count(tokens.cache_creation_5m_tokens);
  const w1 = count(tokens.cache_creation_1h_tokens);
  const output = count(tokens.output_tokens);
  let uncached = input - cached - w5 - w1;
  if (uncached < 0n) uncached = 0n;
  const { rates, long } = bracketFor(card, Number(input));
  const perMtok = rates.input
    .mulInt(uncached)
    .add(rates.cached.mulInt(cached))
    .add(rates.write5m.mulInt(w5))
    .add(rates.write1h.mulInt(w1))
    .add(rates.output.mulInt(output));
  return toCallCost(perMtok.shift(6).mul(multiplier), long ? "long" : "standard", multiplier, tier.status);
}

function variantPrice(card: CompiledCard, media: MediaUsage): Dec | undefined {
  const q = media.quality?.trim().toLowerCase();
  const r = media.resolution?.trim().toLowerCase();
  const keys = [q && r ? `${q}:${r}` : null, r ?? null, q ?? null, "default"];
  for (const k of keys) {
    if (!k) continue;
    const p = card.unitPrices.get(k);
    if (p) return p;
  }
  return undefined;
}

function mediaCost(card: CompiledCard, media: MediaUsage | null): Dec | null {
  if (!media) return null;
  const price = variantPrice(card, media);
  if (!price) return null;
  const nonNeg = (n: number | null | undefined): number | null =>
    n == null || !Number.isFinite(n) || n < 0 ? null : n;
  switch (card.unit) {
    case "image": {
      const n = nonNeg(media.image_count ?? media.generation_count);
      return n === null ? null : price.mul(Dec.from(n));
    }
    case "second": {
      const s = nonNeg(media.video_seconds ?? media.audio_seconds);
      return s === null ? null : price.mul(Dec.from(s));
    }
    case "minute": {
      const s = nonNeg(media.audio_seconds ?? media.video_seconds);
      // Per-minute prices divided by 60 can recur; 18 places keeps the error far below a nano-dollar.
      return s === null ? null : price.mul(Dec.from(s)).divRound(Dec.from(60), 18);
    }
    case "mchar": {
      const c = nonNeg(media.input_characters);
      return c === null ? null : price.mul(Dec.from(c)).shift(6);
    }
    default:
      return null;
  }
}
