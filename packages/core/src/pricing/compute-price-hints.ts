import { regionMultiplier } from "./cost-of-call";
import { Dec } from "./decimal";
import type { PriceCatalogue, ResolvedModel } from "./price-catalogue";
import { isLocalLane, type ProviderId } from "./providers";

export interface PriceHintsInput {
  provider: ProviderId;
  model: string;
  fallbackProviders?: readonly ProviderId[];
  fallbackModels?: readonly string[];
  estimatedInputTokens: number;
}

/** Relative price per provider, cheapest positive = 1.0; keys are ProviderName values. */
export type PriceHints = Partial<Record<ProviderId, number>>;

/**
 * The per-token hint rate of one resolved model: standard-tier input + output USD per token at the
 * bracket selected by the input estimate, with the endpoint premium its id implies. Null when the
 * model is not priced per token (media-unit cards cannot be compared with token prices).
 */
export function hintRate(resolved: ResolvedModel, estimatedInputTokens: number): number | null {
  const { card } = resolved;
  if (card.zero) return 0;
  if (card.unit !== "token") return null;
  const rates = card.long && estimatedInputTokens > card.long.threshold ? card.long : card.standard;
  const m = regionMultiplier(card, null, resolved.endpointScope);
  return m.cmp(Dec.ONE) === 0 ? rates.hintRate : rates.hintRate * m.toNumber();
}

interface HintsMemo {
  /** Long-context thresholds of the chain's token cards, ascending: an estimate's bracket index is how many it exceeds. */
  thresholds: number[];
  byBracket: (PriceHints | undefined)[];
}

const MEMO_MAX = 10_000;

/**
 * Memoized hints per declared chain, as a trie over its parts (provider, model, then each paired
 * fallback provider and model): each step is a map lookup of one string as the request carries
 * it, where a composed key cost a concatenation and a hash of the whole chain per check. Only the
 * paired fallbacks reach the hints (both computations stop at the shorter list), so a chain's node
 * is exact for it.
 */
interface ChainNode {
  next: Map<string, ChainNode> | undefined;
  memo: HintsMemo | undefined;
}

interface ChainMemo {
  root: ChainNode;
  /** Nodes made since the trie was last emptied: chains arrive from the wire unbounded. */
  nodes: number;
}

// Per catalogue object: an edited catalogue is a new object, so its hints are computed afresh.
const memos = new WeakMap<PriceCatalogue, ChainMemo>();

function child(m: ChainMemo, n: ChainNode, part: string): ChainNode {
  let next = n.next;
  if (next === undefined) {
    next = new Map();
    n.next = next;
  }
  let c = next.get(part);
  if (c === undefined) {
    c = { next: undefined, memo: undefined };
    next.set(part, c);
    m.nodes++;
  }
  return c;
}

function chainNode(catalogue: PriceCatalogue, input: PriceHintsInput): ChainNode {
  let m = memos.get(catalogue);
  // A full trie is dropped rather than tracked LRU.
  if (m === undefined || m.nodes >= MEMO_MAX * 4) {
    m = { root: { next: undefined, memo: undefined }, nodes: 0 };
    memos.set(catalogue, m);
  }
  let n = child(m, child(m, m.root, input.provider), input.model);
  const fps = input.fallbackProviders;
  const fms = input.fallbackModels;
  if (fps !== undefined && fms !== undefined) {
    const pairs = Math.min(fps.length, fms.length);
    for (let i = 0; i < pairs; i++) n = child(m, child(m, n, String(fps[i])), String(fms[i]));
  }
  return n;
}

function thresholdsOf(catalogue: PriceCatalogue, input: PriceHintsInput): number[] {
  const out: number[] = [];
  const note = (provider: ProviderId, model: string) => {
    if (isLocalLane(provider)) return;
    const card = catalogue.resolve(provider, model)?.card;
    if (card && !card.zero && card.unit === "token" && card.long && !out.includes(card.long.threshold))
      out.push(card.long.threshold);
  };
  note(input.provider, input.model);
  const fps = input.fallbackProviders ?? [];
  const fms = input.fallbackModels ?? [];
  for (let i = 0; i < Math.min(fps.length, fms.length); i++) note(fps[i] as ProviderId, fms[i] as string);
  return out.sort((a, b) => a - b);
}

/**
 * Price hints exactly as spec §1 defines them (see computePriceHintsUncached), memoized per
 * catalogue and declared chain: the estimate matters only through which long-context brackets it
 * exceeds, so one answer per chain and bracket combination is exact. The returned object is
 * shared between calls and frozen.
 */
export function computePriceHints(catalogue: PriceCatalogue, input: PriceHintsInput): PriceHints {
  const node = chainNode(catalogue, input);
  let entry = node.memo;
  if (entry === undefined) {
    entry = { thresholds: thresholdsOf(catalogue, input), byBracket: [] };
    node.memo = entry;
  }
  const estimate = Math.max(0, input.estimatedInputTokens);
  let bracket = 0;
  while (bracket < entry.thresholds.length && estimate > entry.thresholds[bracket]!) bracket++;
  let hints = entry.byBracket[bracket];
  if (!hints) {
    hints = Object.freeze(computePriceHintsUncached(catalogue, input));
    entry.byBracket[bracket] = hints;
  }
  return hints;
}

/**
 * Price hints exactly as spec §1 defines them. The declared chain is the primary (provider, model)
 * then each (fallback_providers[i], fallback_models[i]). One number per provider: the primary
 * provider from the PRIMARY model only (a same-provider model fallback never changes it), every
 * other provider from its priciest declared priced model. Local lanes are 0.0. A provider with no
 * priced model is omitted. Values are divided by the cheapest positive rate, so the cheapest is
 * exactly 1.0. When no provider has a positive rate the remaining entries are all 0.0 (local
 * lanes, free models) and are returned as such — the SDK only compares hints, and 0.0 is a finite
 * truthful statement; `{}` means nothing in the chain is priceable. Values are finite, ≥ 0, and
 * rounded to 6 decimals. Pure; computed afresh on every call.
 */
export function computePriceHintsUncached(catalogue: PriceCatalogue, input: PriceHintsInput): PriceHints {
  const estimate = Math.max(0, input.estimatedInputTokens);
  const rates = new Map<ProviderId, number>();
  const primary = input.provider;

  const rateOf = (provider: ProviderId, model: string): number | null => {
    if (isLocalLane(provider)) return 0;
    const resolved = catalogue.resolve(provider, model);
    return resolved ? hintRate(resolved, estimate) : null;
  };

  const primaryRate = rateOf(primary, input.model);
  if (primaryRate !== null) rates.set(primary, primaryRate);

  const fps = input.fallbackProviders ?? [];
  const fms = input.fallbackModels ?? [];
  const n = Math.min(fps.length, fms.length);
  for (let i = 0; i < n; i++) {
    const p = fps[i] as ProviderId;
    if (p === primary) continue;
    const r = rateOf(p, fms[i] as string);
    if (r === null) continue;
    const prev = rates.get(p);
    if (prev === undefined || r > prev) rates.set(p, r);
  }

  let cheapest = Number.POSITIVE_INFINITY;
  for (const r of rates.values()) if (r > 0 && r < cheapest) cheapest = r;

  const hints: PriceHints = {};
  for (const [p, r] of rates) {
    if (!Number.isFinite(r) || r < 0) continue;
    const v = r > 0 && Number.isFinite(cheapest) ? Math.round((r / cheapest) * 1e6) / 1e6 : 0;
    hints[p] = Number.isFinite(v) ? v : 0;
  }
  return hints;
}
