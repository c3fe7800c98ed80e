import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "../pricing/catalogue-seed";
import { estimateCallCost } from "../pricing/estimate-call-cost";
import { PriceCatalogue, type ResolvedModel } from "../pricing/price-catalogue";
import { budgetPricingFromCatalogue, reservationNanosOf } from "./budget-pricing";

const catalogue = PriceCatalogue.fromCards([
  ...SEED_PRICE_CARDS,
  // Rates with many decimals and a huge one, so every scale and the float range are exercised.
  {
    provider: "openai",
    model: "bw-test-odd-rates",
    inputPerMtok: "0.0000123",
    cachedInputPerMtok: null,
    cacheWrite5mPerMtok: null,
    cacheWrite1hPerMtok: null,
    outputPerMtok: "987654.321",
    source: "test fixture",
    sourceDate: "2026-11-30",
  },
]);

// Every card as stored, plus ids that resolve through aliases, Bedrock scopes and local lanes.
const resolved: ResolvedModel[] = [
  ...catalogue.cards.map((c) => catalogue.resolve(c.provider, c.model)),
  catalogue.resolve("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
  catalogue.resolve("bedrock", "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"),
  catalogue.resolve("bedrock", "global.anthropic.claude-sonnet-4-5-20250929-v1:0"),
  catalogue.resolve("openrouter", "anthropic/claude-sonnet-4.5"),
  catalogue.resolve("ollama", "llama3"),
].filter((r): r is ResolvedModel => r !== null);

const expected = (r: ResolvedModel, inTokens: number, outTokens: number) => {
  const est = estimateCallCost(r, { estimatedInputTokens: inTokens, outputTokenBound: outTokens });
  return est === null ? null : BigInt(est.nanoUsd);
};

describe("reservationNanosOf", () => {
  it("covers long-context brackets, scoped Bedrock ids and media cards", () => {
    expect(resolved.some((r) => r.card.long !== null)).toBe(true);
    expect(resolved.some((r) => r.endpointScope !== null)).toBe(true);
    expect(resolved.some((r) => r.card.unit !== "token")).toBe(true);
  });

  it("equals the decimal estimate for every resolved model at and around each bracket threshold", () => {
    for (const r of resolved) {
      const t = r.card.long?.threshold ?? 200_000;
      for (const inTokens of [0, 1, 7, 999, 1200, t - 1, t, t + 1, 3 * t, 123_456_789])
        for (const out of [0, 1, 1024, 65_536])
          expect(reservationNanosOf(r, inTokens, out), `${r.card.key} ${inTokens} ${out}`).toBe(
            expected(r, inTokens, out),
          );
    }
  });

  it("equals the decimal estimate on random token counts", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...resolved),
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (r, inTokens, out) => {
          expect(reservationNanosOf(r, inTokens, out)).toBe(expected(r, inTokens, out));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("is what budgetPricingFromCatalogue reserves", () => {
    const pricing = budgetPricingFromCatalogue(catalogue);
    expect(
      pricing.reservationNanos({
        provider: "openai",
        model: "gpt-5.5",
        modality: "text",
        estimatedInputTokens: 1000,
        outputTokenBound: 1024,
      }),
    ).toBe(expected(catalogue.resolve("openai", "gpt-5.5")!, 1000, 1024));
    expect(
      pricing.reservationNanos({
        provider: "openai",
        model: "no-such-model",
        modality: "text",
        estimatedInputTokens: 1,
        outputTokenBound: 1,
      }),
    ).toBeNull();
  });
});
