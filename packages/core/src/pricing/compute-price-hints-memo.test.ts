import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { computePriceHints, computePriceHintsUncached, type PriceHintsInput } from "./compute-price-hints";
import { PriceCatalogue } from "./price-catalogue";
import { PROVIDER_IDS, type ProviderId } from "./providers";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);
const thresholds = [...new Set(catalogue.cards.flatMap((c) => (c.long ? [c.long.threshold] : [])))];

const link = fc.oneof(
  fc.constantFrom(...catalogue.cards.map((c) => [c.provider, c.model] as [ProviderId, string])),
  fc.tuple(fc.constantFrom<ProviderId>("ollama", "vllm"), fc.string({ maxLength: 8 })),
  fc.tuple(fc.constantFrom(...PROVIDER_IDS), fc.string({ maxLength: 12 })),
  fc.constant<[ProviderId, string]>(["bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"]),
);
// Estimates at, around and between every long-context threshold.
const estimate = fc.oneof(
  fc.integer({ min: 0, max: 3_000_000 }),
  fc.constantFrom(...thresholds.flatMap((t) => [t - 1, t, t + 1])),
);

describe("computePriceHints memo", () => {
  it("answers exactly what the uncached computation does, call after call", () => {
    fc.assert(
      fc.property(
        link,
        fc.array(link, { maxLength: 3 }),
        fc.integer({ min: 0, max: 1 }),
        fc.array(estimate, { minLength: 1, maxLength: 6 }),
        ([provider, model], fallbacks, dropOne, estimates) => {
          const fallbackProviders = fallbacks.map((f) => f[0]);
          // Unequal lengths too: only the common prefix of the two lists forms the chain.
          const fallbackModels = fallbacks.map((f) => f[1]).slice(0, fallbacks.length - dropOne);
          for (const estimatedInputTokens of estimates) {
            const input: PriceHintsInput = {
              provider,
              model,
              fallbackProviders,
              fallbackModels,
              estimatedInputTokens,
            };
            expect(computePriceHints(catalogue, input)).toEqual(computePriceHintsUncached(catalogue, input));
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it("keeps chains apart whatever characters their model ids hold", () => {
    const a = computePriceHints(catalogue, {
      provider: "openai",
      model: "gpt-5.5|1:x",
      fallbackProviders: ["anthropic"],
      fallbackModels: ["claude-sonnet-4-5"],
      estimatedInputTokens: 10,
    });
    const b = computePriceHints(catalogue, {
      provider: "openai",
      model: "gpt-5.5",
      fallbackProviders: ["anthropic"],
      fallbackModels: ["claude-sonnet-4-5"],
      estimatedInputTokens: 10,
    });
    expect(a).toEqual({ anthropic: 1 });
    expect(b).toEqual({ openai: 1.944444, anthropic: 1 });
  });

  it("shares a frozen answer, and a new catalogue object computes afresh", () => {
    const input: PriceHintsInput = { provider: "openai", model: "gpt-5.5", estimatedInputTokens: 5 };
    const first = computePriceHints(catalogue, input);
    expect(Object.isFrozen(first)).toBe(true);
    expect(computePriceHints(catalogue, { ...input, estimatedInputTokens: 6 })).toBe(first);
    const edited = PriceCatalogue.fromCards(
      SEED_PRICE_CARDS.map((c) =>
        c.provider === "openai" && c.model === "gpt-5.5"
          ? { ...c, inputPerMtok: "0", outputPerMtok: "0" }
          : c,
      ),
    );
    expect(
      computePriceHints(edited, {
        ...input,
        fallbackProviders: ["anthropic"],
        fallbackModels: ["claude-sonnet-4-5"],
      }),
    ).toEqual({ openai: 0, anthropic: 1 });
  });
});
