import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { classifyLeaseModel, tokensForUsd, worstCaseTokenRate } from "./lease-pricing";
import { PriceCatalogue } from "./price-catalogue";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);

describe("lease pricing", () => {
  it("classifies models for token leases", () => {
    expect(classifyLeaseModel(catalogue, "openai", "gpt-5.5")).toBe("token_priced");
    expect(classifyLeaseModel(catalogue, "openai", "no-such-model-for-leases")).toBe("zero_rate_model");
    expect(classifyLeaseModel(catalogue, "ollama", "llama3.1")).toBe("zero_rate_model");
    expect(classifyLeaseModel(catalogue, "zai", "glm-4.5-flash")).toBe("zero_rate_model");
    expect(classifyLeaseModel(catalogue, "openai", "dall-e-3")).toBe("unit_priced_model");
  });

  it("prices a chain at its dearest token in either bracket", () => {
    // gpt-5.5's dearest token is long-context output: $45/M = $0.000045 per token.
    expect(worstCaseTokenRate(catalogue, { provider: "openai", model: "gpt-5.5" })).toEqual({
      eligible: true,
      usdPerToken: "0.000045",
      worst: { provider: "openai", model: "gpt-5.5" },
    });
    // Opus 4.1's $75/M output beats gpt-5.5; the local hop never lowers the bound.
    expect(
      worstCaseTokenRate(catalogue, {
        provider: "openai",
        model: "gpt-5.5",
        fallbackProviders: ["ollama", "anthropic"],
        fallbackModels: ["llama3.1", "claude-opus-4-1"],
      }),
    ).toMatchObject({ eligible: true, usdPerToken: "0.000075", worst: { provider: "anthropic" } });
    // Haiku 4.5 on a geo profile: output $5/M × 1.1 beats the $2/M 1h write → $0.0000055 per token.
    expect(
      worstCaseTokenRate(catalogue, {
        provider: "bedrock",
        model: "us.anthropic.claude-haiku-4-5-20251001-v1:0",
      }),
    ).toMatchObject({
      usdPerToken: "0.0000055",
    });
  });

  it("refuses chains it cannot bound", () => {
    expect(worstCaseTokenRate(catalogue, { provider: "openai", model: "no-such-model-for-leases" })).toEqual({
      eligible: false,
      reason: "zero_rate_model",
    });
    expect(
      worstCaseTokenRate(catalogue, {
        provider: "openai",
        model: "gpt-5.5",
        fallbackProviders: ["openai"],
        fallbackModels: ["mystery"],
      }),
    ).toEqual({ eligible: false, reason: "zero_rate_model" });
    expect(
      worstCaseTokenRate(catalogue, {
        provider: "ollama",
        model: "x",
        fallbackProviders: ["vllm"],
        fallbackModels: ["y"],
      }),
    ).toEqual({
      eligible: false,
      reason: "zero_rate_model",
    });
    expect(
      worstCaseTokenRate(catalogue, {
        provider: "openai",
        model: "gpt-5.5",
        fallbackProviders: ["openai"],
        fallbackModels: ["dall-e-3"],
      }),
    ).toEqual({ eligible: false, reason: "unit_priced_model" });
  });

  it("converts a USD share into whole tokens, rounding down", () => {
    expect(tokensForUsd("1", "0.000045")).toBe(22222); // 1 / 0.000045 = 22222.2…
    expect(tokensForUsd("0", "0.000045")).toBe(0);
    expect(tokensForUsd("-3", "0.000045")).toBe(0);
  });
});
