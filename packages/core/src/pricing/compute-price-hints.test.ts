import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { computePriceHints } from "./compute-price-hints";
import { PriceCatalogue } from "./price-catalogue";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);

// Hint rates (input + output, $ per M tokens, standard bracket):
// gpt-5.5 35 · gpt-5-nano 0.45 · claude-sonnet-4-5 18 · claude-haiku-4-5 6 · claude-opus-4-1 90
// gemini-2.5-flash 2.8 · long bracket: claude-sonnet-4-5 28.5, gemini-2.5-pro 17.5 (standard 11.25)

describe("computePriceHints", () => {
  it("divides by the cheapest positive rate; a local lane is 0.0", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "openai",
        model: "gpt-5.5",
        fallbackProviders: ["anthropic", "ollama"],
        fallbackModels: ["claude-sonnet-4-5", "llama3.1:8b"],
        estimatedInputTokens: 1000,
      }),
    ).toEqual({ openai: 1.944444, anthropic: 1, ollama: 0 }); // 35/18, 18/18
  });

  it("takes the primary provider from the primary model even with a same-provider model fallback", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "openai",
        model: "gpt-5.5",
        fallbackProviders: ["openai", "anthropic"],
        fallbackModels: ["gpt-5-nano", "claude-haiku-4-5"],
        estimatedInputTokens: 1000,
      }),
    ).toEqual({ openai: 5.833333, anthropic: 1 }); // 35/6 — not gpt-5-nano's 0.45
    expect(
      computePriceHints(catalogue, {
        provider: "openai",
        model: "gpt-5-nano",
        fallbackProviders: ["openai", "anthropic"],
        fallbackModels: ["gpt-5.5", "claude-haiku-4-5"],
        estimatedInputTokens: 1000,
      }),
    ).toEqual({ openai: 1, anthropic: 13.333333 }); // 6/0.45 — the pricier gpt-5.5 fallback is ignored
  });

  it("takes every other provider from its priciest declared model", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "google",
        model: "gemini-2.5-flash",
        fallbackProviders: ["anthropic", "anthropic"],
        fallbackModels: ["claude-haiku-4-5", "claude-opus-4-1"],
        estimatedInputTokens: 1000,
      }),
    ).toEqual({ google: 1, anthropic: 32.142857 }); // 90/2.8
  });

  it("omits a provider whose declared models are all unpriced", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "openai",
        model: "no-such-model",
        fallbackProviders: ["anthropic", "google", "openai_compatible"],
        fallbackModels: ["claude-haiku-4-5", "mystery-model", "gpt-4o"],
        estimatedInputTokens: 1000,
      }),
    ).toEqual({ anthropic: 1 });
    // An unpriced model next to a priced one of the same provider does not hide the provider.
    expect(
      computePriceHints(catalogue, {
        provider: "google",
        model: "gemini-2.5-flash",
        fallbackProviders: ["anthropic", "anthropic"],
        fallbackModels: ["mystery", "claude-haiku-4-5"],
        estimatedInputTokens: 0,
      }),
    ).toEqual({ google: 1, anthropic: 2.142857 }); // 6/2.8
  });

  it("selects the long-context bracket from the estimate", () => {
    const chain = {
      provider: "anthropic" as const,
      model: "claude-sonnet-4-5",
      fallbackProviders: ["google" as const],
      fallbackModels: ["gemini-2.5-pro"],
    };
    expect(computePriceHints(catalogue, { ...chain, estimatedInputTokens: 100_000 })).toEqual({
      google: 1,
      anthropic: 1.6,
    }); // 18/11.25
    expect(computePriceHints(catalogue, { ...chain, estimatedInputTokens: 250_000 })).toEqual({
      google: 1,
      anthropic: 1.628571,
    }); // 28.5/17.5
  });

  it("includes the regional-endpoint premium a Bedrock id carries", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        fallbackProviders: ["bedrock"],
        fallbackModels: ["us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
        estimatedInputTokens: 1000,
      }),
    ).toEqual({ anthropic: 1, bedrock: 1.1 });
  });

  it("answers {} when nothing in the chain is priceable", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "openai_compatible",
        model: "gpt-4o",
        estimatedInputTokens: 10,
      }),
    ).toEqual({});
    expect(
      computePriceHints(catalogue, {
        provider: "openai",
        model: "mystery",
        fallbackProviders: ["mistral"],
        fallbackModels: ["mystery-2"],
        estimatedInputTokens: 10,
      }),
    ).toEqual({});
  });

  it("reports 0.0 for an all-local (or all-free) chain: no positive rate to divide by", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "ollama",
        model: "llama3.1",
        fallbackProviders: ["vllm", "zai"],
        fallbackModels: ["qwen3", "glm-4.5-flash"],
        estimatedInputTokens: 10,
      }),
    ).toEqual({ ollama: 0, vllm: 0, zai: 0 });
  });

  it("ignores fallback entries beyond the shorter of the two arrays", () => {
    expect(
      computePriceHints(catalogue, {
        provider: "openai",
        model: "gpt-5.5",
        fallbackProviders: ["anthropic"],
        fallbackModels: [],
        estimatedInputTokens: 10,
      }),
    ).toEqual({ openai: 1 });
  });
});
