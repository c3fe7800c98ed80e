import { z } from "zod";
import type { Ctx } from "../context";
import { parseInput, requireOperator } from "../operator/operator-input";
import { computePriceHints, hintRate, type PriceHints } from "./compute-price-hints";
import { bracketFor, regionMultiplier, tierMultiplier } from "./cost-of-call";
import { loadLivePriceCatalogue } from "./load-price-catalogue";
import { normalizedCandidates, type PriceCatalogue, type ResolvedModel } from "./price-catalogue";
import { isLocalLane, PROVIDER_IDS, type ProviderId, SERVICE_TIER_VALUES } from "./providers";

/** A declared chain as an SDK sends it on a budget check (spec §1), plus optional tier and region. */
export const explainPriceHintsInput = z
  .object({
    provider: z.enum(PROVIDER_IDS, { message: "Choose a provider" }),
    model: z.string().trim().min(1, "Enter a model id").max(2048),
    fallbackProviders: z
      .array(z.enum(PROVIDER_IDS, { message: "Choose a provider" }))
      .max(8)
      .default([]),
    fallbackModels: z.array(z.string().trim().min(1, "Enter a model id").max(2048)).max(8).default([]),
    estimatedInputTokens: z
      .number({ message: "Enter a token count" })
      .int("A whole number of tokens")
      .min(0, "Cannot be negative")
      .max(100_000_000, "At most 100,000,000"),
    serviceTier: z.enum(SERVICE_TIER_VALUES).nullish(),
    region: z.string().trim().max(32).nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.fallbackProviders.length !== v.fallbackModels.length)
      ctx.addIssue({
        code: "custom",
        path: ["fallbackModels"],
        message: "fallback_models must align 1:1 with fallback_providers",
      });
  });

export type ExplainPriceHintsInput = z.input<typeof explainPriceHintsInput>;

export interface ExplainedRates {
  inputPerMtok: string;
  cachedInputPerMtok: string;
  cacheWrite5mPerMtok: string;
  cacheWrite1hPerMtok: string;
  outputPerMtok: string;
}

export interface ExplainedChainEntry {
  position: number;
  role: "primary" | "fallback";
  provider: ProviderId;
  model: string;
  /** Null = unpriced (no card; the provider gets no hint from this entry). */
  card: { id: string | null; provider: string; model: string; unit: string } | null;
  /** How the id matched, and the alias or pattern that did. */
  matched: { via: ResolvedModel["via"]; by: string | null } | null;
  bracket: { kind: "standard" | "long"; threshold: number | null } | null;
  rates: ExplainedRates | null;
  /** Endpoint and region multiplier of the hint (Bedrock geo/global ids). */
  endpointScope: string | null;
  /** Standard-tier input + output USD per token at the bracket: what the hint compares. Null = none. */
  hintRate: number | null;
  /** Whether this entry decides its provider's hint (the primary model; else the priciest fallback). */
  decidesHint: boolean;
  /** What the optional tier and region would do to a call's cost (hints never apply them). */
  costMultiplier: { tier: string; tierStatus: string; region: string } | null;
}

export interface PriceHintsExplanation {
  entries: ExplainedChainEntry[];
  /** Exactly what the wire API puts in `price_hints` for this chain and estimate. */
  priceHints: PriceHints;
  /** The same, serialised the way the wire serialises it (floats always carry a decimal point). */
  priceHintsJson: string;
}

function wireFloat(x: number): string {
  return Number.isInteger(x) && Math.abs(x) < 1e21 ? `${x === 0 ? 0 : x}.0` : JSON.stringify(x);
}

function matchedBy(resolved: ResolvedModel, model: string): string | null {
  const candidates = normalizedCandidates(model.trim().toLowerCase());
  const { data } = resolved.card;
  if (resolved.via === "alias" || resolved.via === "normalized")
    return (
      data.aliases.find((a) => candidates.includes(a.toLowerCase())) ??
      (candidates.includes(data.model.toLowerCase()) ? data.model : null)
    );
  if (resolved.via === "pattern")
    return data.patterns.find((p) => candidates.some((c) => new RegExp(p, "i").test(c))) ?? null;
  return null;
}

/**
 * "Why this hint": for each entry of a declared chain, the card that prices it (or none), how the
 * id matched, the bracket the estimate selects and its rates; and the `price_hints` the wire API
 * would answer, from the same computePriceHints the budget check calls on the catalogue as stored
 * now. Operator only.
 */
export async function explainPriceHints(
  ctx: Ctx,
  raw: unknown,
  opts: { catalogue?: PriceCatalogue } = {},
): Promise<PriceHintsExplanation> {
  requireOperator(ctx);
  const input = parseInput(explainPriceHintsInput, raw);
  const catalogue = opts.catalogue ?? (await loadLivePriceCatalogue(ctx.db));
  const ids = new Map(
    (await ctx.db.priceCard.findMany({ select: { id: true, provider: true, model: true } })).map((r) => [
      `${r.provider}:${r.model.toLowerCase()}`,
      r.id,
    ]),
  );
  const hints = computePriceHints(catalogue, {
    provider: input.provider,
    model: input.model,
    fallbackProviders: input.fallbackProviders,
    fallbackModels: input.fallbackModels,
    estimatedInputTokens: input.estimatedInputTokens,
  });

  const chain: { provider: ProviderId; model: string }[] = [
    { provider: input.provider, model: input.model },
    ...input.fallbackProviders.map((p, i) => ({ provider: p, model: input.fallbackModels[i] as string })),
  ];
  const entries: ExplainedChainEntry[] = chain.map(({ provider, model }, i) => {
    const resolved = catalogue.resolve(provider, model);
    const rate = resolved ? hintRate(resolved, input.estimatedInputTokens) : null;
    const base: ExplainedChainEntry = {
      position: i,
      role: i === 0 ? "primary" : "fallback",
      provider,
      model,
      card: null,
      matched: null,
      bracket: null,
      rates: null,
      endpointScope: null,
      hintRate: isLocalLane(provider) ? 0 : rate,
      decidesHint: false,
      costMultiplier: null,
    };
    if (!resolved) return base;
    const { card } = resolved;
    const { rates, long } = bracketFor(card, input.estimatedInputTokens);
    const tier = tierMultiplier(card, input.serviceTier ?? null);
    return {
      ...base,
      card: {
        id: card.zero ? null : (ids.get(card.key) ?? null),
        provider: card.provider,
        model: card.model,
        unit: card.unit,
      },
      matched: { via: resolved.via, by: matchedBy(resolved, model) },
      bracket: { kind: long ? "long" : "standard", threshold: card.long?.threshold ?? null },
      rates: {
        inputPerMtok: rates.input.toString(),
        cachedInputPerMtok: rates.cached.toString(),
        cacheWrite5mPerMtok: rates.write5m.toString(),
        cacheWrite1hPerMtok: rates.write1h.toString(),
        outputPerMtok: rates.output.toString(),
      },
      endpointScope: resolved.endpointScope,
      costMultiplier:
        input.serviceTier || input.region
          ? {
              tier: tier.multiplier.toString(),
              tierStatus: tier.status,
              region: regionMultiplier(card, input.region ?? null, resolved.endpointScope).toString(),
            }
          : null,
    };
  });
  // Which entry decides each provider's number (spec §1: primary from the primary model, others
  // from their priciest priced model) — shown beside the entries, the number itself comes from hints.
  const decider = new Map<ProviderId, number>();
  decider.set(input.provider, 0);
  for (const e of entries.slice(1)) {
    if (e.provider === input.provider || e.hintRate === null) continue;
    const prev = decider.get(e.provider);
    if (prev === undefined || (entries[prev]?.hintRate ?? -1) < e.hintRate)
      decider.set(e.provider, e.position);
  }
  for (const [provider, pos] of decider) {
    const e = entries[pos];
    if (e && e.hintRate !== null && provider in hints) e.decidesHint = true;
  }
  const json = `{${Object.entries(hints)
    .map(([p, v]) => `${JSON.stringify(p)}:${wireFloat(v as number)}`)
    .join(",")}}`;
  return { entries, priceHints: { ...hints }, priceHintsJson: json };
}
