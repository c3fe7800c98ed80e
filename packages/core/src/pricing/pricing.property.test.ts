import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { computePriceHints } from "./compute-price-hints";
import { costOfCall, type TokenDetails } from "./cost-of-call";
import { Dec } from "./decimal";
import { PriceCatalogue } from "./price-catalogue";
import { PROVIDER_IDS, type ProviderId, SERVICE_TIER_VALUES } from "./providers";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);
const tokenCards = catalogue.cards.filter((c) => c.unit === "token");

// Chain links drawn from real cards, local lanes, unknown ids and unpriceable providers.
const link = fc.oneof(
  fc.constantFrom(...catalogue.cards.map((c) => [c.provider, c.model] as [ProviderId, string])),
  fc.tuple(fc.constantFrom<ProviderId>("ollama", "vllm", "lmstudio"), fc.string({ maxLength: 12 })),
  fc.tuple(fc.constantFrom(...PROVIDER_IDS), fc.string({ maxLength: 20 })),
  fc.constant<[ProviderId, string]>(["bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"]),
  fc.constant<[ProviderId, string]>(["openrouter", "anthropic/claude-sonnet-4.5"]),
);

const tokenCount = fc.integer({ min: 0, max: 100_000_000 });
const tokens = fc.record(
  {
    input_tokens: tokenCount,
    output_tokens: tokenCount,
    cached_input_tokens: tokenCount,
    cache_creation_5m_tokens: tokenCount,
    cache_creation_1h_tokens: tokenCount,
    reasoning_tokens: tokenCount,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<TokenDetails>;
const tier = fc.option(fc.oneof(fc.constantFrom(...SERVICE_TIER_VALUES), fc.string({ maxLength: 8 })), {
  nil: undefined,
});
const card = fc.constantFrom(...tokenCards);
const scope = fc.constantFrom(null, "global" as const, "geo" as const, "in_region" as const);

describe("pricing properties", () => {
  it("price hints: finite, ≥ 0, keys ⊂ ProviderName, cheapest positive = 1.0, local lanes 0.0", () => {
    fc.assert(
      fc.property(
        link,
        fc.array(link, { maxLength: 8 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        ([p, m], fallbacks, est) => {
          const hints = computePriceHints(catalogue, {
            provider: p,
            model: m,
            fallbackProviders: fallbacks.map((f) => f[0]),
            fallbackModels: fallbacks.map((f) => f[1]),
            estimatedInputTokens: est,
          });
          const values = Object.values(hints) as number[];
          for (const [k, v] of Object.entries(hints)) {
            expect(PROVIDER_IDS).toContain(k);
            expect(Number.isFinite(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(0);
            if (k === "ollama" || k === "vllm" || k === "lmstudio") expect(v).toBe(0);
          }
          const positive = values.filter((v) => v > 0);
          if (positive.length > 0) expect(Math.min(...positive)).toBe(1);
          // Every declared local lane is stated.
          for (const q of [p, ...fallbacks.map((f) => f[0])]) {
            if (q === "ollama" || q === "vllm" || q === "lmstudio") expect(hints[q]).toBe(0);
          }
          // JSON round trip keeps every value (no NaN/Infinity turning into null).
          expect(JSON.parse(JSON.stringify(hints))).toEqual(hints);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("cost is never negative and its nano-dollar view is the exact amount rounded up", () => {
    fc.assert(
      fc.property(card, tokens, tier, scope, (c, t, serviceTier, endpointScope) => {
        const cost = costOfCall(c, t, { serviceTier, endpointScope });
        expect(cost).not.toBeNull();
        if (!cost) return;
        const exact = Dec.from(cost.usd);
        expect(exact.isNegative()).toBe(false);
        expect(Number.isSafeInteger(cost.nanoUsd)).toBe(true);
        const nano = Dec.from(cost.nanoUsd).shift(9);
        expect(nano.cmp(exact)).toBeGreaterThanOrEqual(0);
        expect(nano.sub(exact).cmp(Dec.from("0.000000001"))).toBe(-1);
      }),
      { numRuns: 2000 },
    );
  });

  it("cost is monotonic: more output, or more uncached input, never costs less", () => {
    fc.assert(
      fc.property(card, tokens, fc.integer({ min: 0, max: 5_000_000 }), tier, (c, t, extra, serviceTier) => {
        const base = Dec.from(costOfCall(c, t, { serviceTier })?.usd ?? "0");
        const moreOut = Dec.from(
          costOfCall(c, { ...t, output_tokens: (t.output_tokens ?? 0) + extra }, { serviceTier })?.usd ?? "0",
        );
        const moreIn = Dec.from(
          costOfCall(c, { ...t, input_tokens: (t.input_tokens ?? 0) + extra }, { serviceTier })?.usd ?? "0",
        );
        expect(moreOut.cmp(base)).toBeGreaterThanOrEqual(0);
        expect(moreIn.cmp(base)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("decimal arithmetic agrees with integer arithmetic on scaled values", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.nat(12),
        fc.nat(12),
        (a, b, sa, sb) => {
          const x = Dec.from(a).shift(sa);
          const y = Dec.from(b).shift(sb);
          expect(Dec.from(x.toString()).cmp(x)).toBe(0);
          // (a·10^-sa)(b·10^-sb) = ab·10^-(sa+sb)
          expect(x.mul(y).cmp(Dec.from(a * b).shift(sa + sb))).toBe(0);
          const s = Math.max(sa, sb);
          expect(x.add(y).cmp(Dec.from(a * 10n ** BigInt(s - sa) + b * 10n ** BigInt(s - sb)).shift(s))).toBe(
            0,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
