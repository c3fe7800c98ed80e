import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { costOfCall } from "./cost-of-call";
import { DEFAULT_OUTPUT_TOKEN_BOUND, estimateCallCost } from "./estimate-call-cost";
import { PriceCatalogue } from "./price-catalogue";
import type { ProviderId } from "./providers";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);
const r = (p: ProviderId, m: string) => {
  const x = catalogue.resolve(p, m);
  if (!x) throw new Error(`unpriced ${p}/${m}`);
  return x;
};

describe("costOfCall", () => {
  it("prices the SDK contract call: gpt-5.5, 1000 in / 500 out", () => {
    // 1000 × $5/M + 500 × $30/M = 0.005 + 0.015 = $0.02
    expect(costOfCall(r("openai", "gpt-5.5"), { input_tokens: 1000, output_tokens: 500 })).toEqual({
      usd: "0.02",
      nanoUsd: 20_000_000,
      usdFloat: 0.02,
      bracket: "standard",
      multiplier: "1",
      tierStatus: "standard",
    });
  });

  it("splits input into uncached, cached reads and 5m/1h cache writes (input INCLUDES them)", () => {
    // claude-sonnet-4-5: input 10,000 = 1,000 uncached + 6,000 read + 2,000 (5m) + 1,000 (1h); output 1,000.
    // 1000×3 + 6000×0.30 + 2000×3.75 + 1000×6 + 1000×15 = 3000+1800+7500+6000+15000 = 33,300 µ$ → $0.0333
    const c = costOfCall(r("anthropic", "claude-sonnet-4-5"), {
      input_tokens: 10_000,
      cached_input_tokens: 6_000,
      cache_creation_5m_tokens: 2_000,
      cache_creation_1h_tokens: 1_000,
      output_tokens: 1_000,
      reasoning_tokens: 400, // ⊂ output: no extra charge
    });
    expect(c?.usd).toBe("0.0333");
  });

  it("floors uncached input at 0 when the counters disagree", () => {
    // 150 cached reads × $0.30/M = $0.000045; uncached = max(0, 100 − 150) = 0.
    expect(
      costOfCall(r("anthropic", "claude-sonnet-4-5"), { input_tokens: 100, cached_input_tokens: 150 })?.usd,
    ).toBe("0.000045");
  });

  it("reprices the whole request in the long-context bracket strictly above the threshold", () => {
    const sonnet = r("anthropic", "claude-sonnet-4-5");
    // 200,000 in is still standard: 200000×3 = $0.6
    expect(costOfCall(sonnet, { input_tokens: 200_000 })).toMatchObject({ usd: "0.6", bracket: "standard" });
    // 250,000 in (50,000 cached) + 2,000 out at long rates: 200000×6 + 50000×0.60 + 2000×22.5
    // = 1,200,000 + 30,000 + 45,000 = 1,275,000 µ$ → $1.275
    expect(
      costOfCall(sonnet, { input_tokens: 250_000, cached_input_tokens: 50_000, output_tokens: 2_000 }),
    ).toMatchObject({ usd: "1.275", bracket: "long" });
    // gemini-2.5-pro above 200K: 300000×2.5 + 10000×15 = 900,000 µ$ → $0.9
    expect(
      costOfCall(r("google", "gemini-2.5-pro"), { input_tokens: 300_000, output_tokens: 10_000 })?.usd,
    ).toBe("0.9");
    // claude-haiku-5-5 above 100K: 100001 × $0.50/M = $0.0500005 → 50,000,500 n$
    expect(costOfCall(r("anthropic", "claude-haiku-5-5"), { input_tokens: 100_001 })).toMatchObject({
      usd: "0.0500005",
      nanoUsd: 50_000_500,
    });
  });

  it("derives unlisted long-bracket cache-write rates from the input ratio", () => {
    // gpt-5.5 writes bill as input: long input $10/M, so 1,000 writes in a 300K request = $0.01.
    const c = costOfCall(r("openai", "gpt-5.5"), {
      input_tokens: 300_000,
      cache_creation_5m_tokens: 1_000,
      cached_input_tokens: 299_000,
    });
    // 1000 × 10 + 299000 × 1.00 = 10,000 + 299,000 = 309,000 µ$ → $0.309
    expect(c?.usd).toBe("0.309");
  });

  it("applies Bedrock tier and regional-endpoint multipliers", () => {
    const t = { input_tokens: 1_000, output_tokens: 1_000 }; // list: 1000×3 + 1000×15 = $0.018
    const geo = r("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    const global = r("bedrock", "global.anthropic.claude-sonnet-4-5-20250929-v1:0");
    const inRegion = r("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(costOfCall(global, t)?.usd).toBe("0.018");
    expect(costOfCall(geo, t)).toMatchObject({ usd: "0.0198", multiplier: "1.1" }); // ×1.1
    expect(costOfCall(geo, t, { serviceTier: "flex" })).toMatchObject({
      usd: "0.0099",
      multiplier: "0.55",
      tierStatus: "applied",
    });
    expect(costOfCall(global, t, { serviceTier: "flex" })?.usd).toBe("0.009"); // ×0.5
    expect(costOfCall(geo, t, { serviceTier: "priority" })?.usd).toBe("0.03465"); // ×1.75×1.1
    expect(costOfCall(inRegion, t, { serviceTier: "optimized" })?.usd).toBe("0.02475"); // ×1.25×1.1
    expect(costOfCall(global, t, { serviceTier: "default" })).toMatchObject({
      usd: "0.018",
      tierStatus: "standard",
    });
    // Claude 3 Haiku predates the regional premium: same price everywhere.
    expect(costOfCall(r("bedrock", "us.anthropic.claude-3-haiku-20240307-v1:0"), t)?.usd).toBe("0.0015");
  });

  it("applies OpenAI flex/priority where published and flags tiers it cannot price", () => {
    const t = { input_tokens: 1_000, output_tokens: 1_000 }; // gpt-5: 1000×1.25 + 1000×10 = $0.01125
    expect(costOfCall(r("openai", "gpt-5"), t, { serviceTier: "flex" })?.usd).toBe("0.005625");
    expect(costOfCall(r("openai", "gpt-5"), t, { serviceTier: "priority" })?.usd).toBe("0.0225");
    expect(costOfCall(r("openai", "gpt-5"), t, { serviceTier: "scale" })).toMatchObject({
      usd: "0.01125",
      tierStatus: "standard",
    });
    expect(costOfCall(r("anthropic", "claude-haiku-4-5"), t, { serviceTier: "priority" })).toMatchObject({
      usd: "0.006",
      tierStatus: "unpriced_tier",
    });
    expect(
      costOfCall(r("bedrock", "anthropic.claude-haiku-4-5"), t, { serviceTier: "reserved" }),
    ).toMatchObject({
      tierStatus: "unknown_service_tier",
      multiplier: "1.1",
    });
    expect(costOfCall(r("openai", "gpt-5"), t, { serviceTier: " Flex " })?.tierStatus).toBe("applied");
  });

  it("keeps sub-nano-dollar amounts exact and rounds the integer view up", () => {
    // 1 cached read of deepseek-v4-flash: $0.0028/M = $0.0000000028 → 3 n$ (ceil)
    const c = costOfCall(r("deepseek", "deepseek-chat"), { input_tokens: 1, cached_input_tokens: 1 });
    expect(c).toMatchObject({ usd: "0.0000000028", nanoUsd: 3 });
    // gpt-5-nano 10 in / 5 out: 10×0.05 + 5×0.40 = 2.5 µ$ → 2,500 n$
    expect(costOfCall(r("openai", "gpt-5-nano"), { input_tokens: 10, output_tokens: 5 })).toMatchObject({
      usd: "0.0000025",
      nanoUsd: 2500,
    });
  });

  it("costs local lanes exactly 0 and zero-token calls 0", () => {
    expect(
      costOfCall(r("ollama", "llama3.1"), { input_tokens: 10_000_000, output_tokens: 1_000 }),
    ).toMatchObject({ usd: "0", nanoUsd: 0 });
    expect(costOfCall(r("openai", "gpt-5.5"), {})?.usd).toBe("0");
  });

  it("bills media-unit cards from MediaUsage and leaves a missing quantity unpriced", () => {
    const dalle = r("openai", "dall-e-3");
    expect(
      costOfCall(dalle, {}, { mediaUsage: { image_count: 2, quality: "hd", resolution: "1024x1792" } }),
    ).toMatchObject({
      usd: "0.24",
      bracket: "unit",
    });
    expect(costOfCall(dalle, {}, { mediaUsage: { image_count: 1 } })?.usd).toBe("0.04");
    expect(costOfCall(dalle, {}, { mediaUsage: { image_count: null } })).toBeNull();
    expect(costOfCall(dalle, { input_tokens: 50 })).toBeNull();
    // whisper-1: 90 s × $0.006/min = $0.009
    expect(costOfCall(r("openai", "whisper-1"), {}, { mediaUsage: { audio_seconds: 90 } })?.usd).toBe(
      "0.009",
    );
    // tts-1: 1,000 characters × $15/M chars = $0.015
    expect(costOfCall(r("openai", "tts-1"), {}, { mediaUsage: { input_characters: 1000 } })?.usd).toBe(
      "0.015",
    );
    // grok-imagine-video: 6.5 s × $0.05 = $0.325
    expect(costOfCall(r("xai", "grok-imagine-video"), {}, { mediaUsage: { video_seconds: 6.5 } })?.usd).toBe(
      "0.325",
    );
  });
});

describe("estimateCallCost", () => {
  it("reserves input estimate × input rate + output bound × output rate", () => {
    // gpt-5.5: 1000×5 + 1024×30 = 5,000 + 30,720 = 35,720 µ$ → $0.03572
    expect(DEFAULT_OUTPUT_TOKEN_BOUND).toBe(1024);
    expect(estimateCallCost(r("openai", "gpt-5.5"), { estimatedInputTokens: 1000 })?.usd).toBe("0.03572");
    // long bracket by the estimate: 300000×10 + 1000×45 = 3,045,000 µ$ → $3.045
    expect(
      estimateCallCost(r("openai", "gpt-5.5"), { estimatedInputTokens: 300_000, outputTokenBound: 1000 }),
    ).toMatchObject({
      usd: "3.045",
      bracket: "long",
    });
    // geo premium carried by the id: (1000×3 + 1000×15) × 1.1 = $0.0198
    expect(
      estimateCallCost(r("bedrock", "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"), {
        estimatedInputTokens: 1000,
        outputTokenBound: 1000,
      })?.usd,
    ).toBe("0.0198");
    expect(estimateCallCost(r("vllm", "qwen3"), { estimatedInputTokens: 1000 })?.usd).toBe("0");
    expect(estimateCallCost(r("openai", "dall-e-3"), { estimatedInputTokens: 10 })).toBeNull();
  });
});
