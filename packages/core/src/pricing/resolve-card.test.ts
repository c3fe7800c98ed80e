import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { PriceCatalogue } from "./price-catalogue";
import type { ProviderId } from "./providers";
import { resolveCard } from "./resolve-card";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);
const model = (p: ProviderId, m: string) => resolveCard(catalogue, p, m)?.card.model ?? null;

describe("resolveCard", () => {
  it("matches exact ids and aliases case-insensitively", () => {
    expect(resolveCard(catalogue, "openai", "gpt-5.5")?.via).toBe("exact");
    expect(resolveCard(catalogue, "openai", "GPT-4o-2024-08-06")).toMatchObject({
      via: "alias",
      card: { model: "gpt-4o" },
    });
    expect(model("anthropic", "claude-sonnet-4-5-20250929")).toBe("claude-sonnet-4-5");
    expect(model("mistral", "mistral-medium-latest")).toBe("mistral-medium-2508");
    expect(model("deepseek", "deepseek-chat")).toBe("deepseek-v4-flash");
    expect(model("together", "meta-llama/Llama-3.3-70B-Instruct-Turbo")).toBe(
      "meta-llama/llama-3.3-70b-instruct-turbo",
    );
  });

  it("strips dated snapshot suffixes it does not know explicitly", () => {
    expect(resolveCard(catalogue, "openai", "gpt-5.5-2026-04-23")).toMatchObject({
      via: "normalized",
      card: { model: "gpt-5.5" },
    });
    expect(model("openai", "gpt-4.1-mini-2025-04-14")).toBe("gpt-4.1-mini");
    expect(model("anthropic", "claude-opus-4-6-20260201")).toBe("claude-opus-4-6");
    expect(model("anthropic", "claude-3-5-haiku-latest")).toBe("claude-3-5-haiku");
  });

  it("keeps a snapshot with its own price on its own card", () => {
    expect(model("openai", "gpt-4o-2024-05-13")).toBe("gpt-4o-2024-05-13");
  });

  it("understands Vertex @versions, Gemini models/ prefixes, preview patterns and [1m] suffixes", () => {
    expect(model("anthropic", "claude-sonnet-4-5@20250929")).toBe("claude-sonnet-4-5");
    expect(model("google", "models/gemini-2.5-pro")).toBe("gemini-2.5-pro");
    expect(resolveCard(catalogue, "google", "gemini-2.5-flash-preview-05-20")).toMatchObject({
      via: "pattern",
      card: { model: "gemini-2.5-flash" },
    });
    expect(model("google", "gemini-2.5-flash-lite-preview-06-17")).toBe("gemini-2.5-flash-lite");
    expect(model("anthropic", "claude-sonnet-4-5[1m]")).toBe("claude-sonnet-4-5");
  });

  it("maps Bedrock ids, geo prefixes and ARNs onto the vendor.model card with the endpoint scope", () => {
    const cases: [string, string, string | null][] = [
      ["anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-sonnet-4-5", "in_region"],
      ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-sonnet-4-5", "geo"],
      ["eu.anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic.claude-haiku-4-5", "geo"],
      ["apac.anthropic.claude-3-5-haiku-20241022-v1:0", "anthropic.claude-3-5-haiku", "geo"],
      ["global.anthropic.claude-opus-4-5-20251101-v1:0", "anthropic.claude-opus-4-5", "global"],
      ["us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic.claude-sonnet-4-5", "geo"],
      [
        "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "anthropic.claude-sonnet-4-5",
        "geo",
      ],
      [
        "arn:aws:bedrock:eu-west-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0",
        "anthropic.claude-3-haiku",
        "in_region",
      ],
      ["amazon.nova-pro-v1:0", "amazon.nova-pro", "in_region"],
      ["us.amazon.nova-lite-v1:0", "amazon.nova-lite", "geo"],
      ["meta.llama3-3-70b-instruct-v1:0", "meta.llama3-3-70b-instruct", "in_region"],
      ["openai.gpt-oss-120b-1:0", "openai.gpt-oss-120b", "in_region"],
      ["anthropic.claude-3-haiku-20240307-v1:0:200k", "anthropic.claude-3-haiku", "in_region"],
    ];
    for (const [id, card, scope] of cases) {
      const r = resolveCard(catalogue, "bedrock", id);
      expect(r?.card.model, id).toBe(card);
      expect(r?.endpointScope, id).toBe(scope);
    }
    const arn = resolveCard(
      catalogue,
      "bedrock",
      "arn:aws:bedrock:eu-west-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0",
    );
    expect(arn?.arnRegion).toBe("eu-west-1");
    // Application inference profiles are opaque: only an operator card with that exact id prices them.
    expect(
      resolveCard(
        catalogue,
        "bedrock",
        "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123",
      ),
    ).toBeNull();
  });

  it("prices OpenRouter vendor/model ids at the vendor's card, :free at zero", () => {
    expect(model("openrouter", "openai/gpt-5")).toBe("gpt-5");
    expect(model("openrouter", "anthropic/claude-sonnet-4.5")).toBe("claude-sonnet-4-5");
    expect(model("openrouter", "google/gemini-2.5-pro")).toBe("gemini-2.5-pro");
    expect(model("openrouter", "x-ai/grok-4")).toBe("grok-4-0709");
    expect(model("openrouter", "deepseek/deepseek-chat")).toBe("deepseek-v4-flash");
    const free = resolveCard(catalogue, "openrouter", "deepseek/deepseek-chat:free");
    expect(free?.card.zero).toBe(true);
    expect(resolveCard(catalogue, "openrouter", "some-lab/unknown-model")).toBeNull();
  });

  it("falls back from Azure OpenAI deployments to OpenAI cards", () => {
    expect(resolveCard(catalogue, "azure_openai", "gpt-4o-2024-11-20")).toMatchObject({
      via: "fallback_provider",
      card: { provider: "openai", model: "gpt-4o" },
    });
    expect(resolveCard(catalogue, "azure_openai", "my-prod-deployment")).toBeNull();
  });

  it("resolves every model on a local lane to a zero card and nothing on openai_compatible", () => {
    for (const p of ["ollama", "vllm", "lmstudio"] as const) {
      const r = resolveCard(catalogue, p, "llama3.1:8b");
      expect(r?.card.zero).toBe(true);
      expect(r?.via).toBe("local_lane");
    }
    expect(resolveCard(catalogue, "openai_compatible", "gpt-4o")).toBeNull();
  });

  it("answers unknown for unknown ids, empty ids and ids of another provider", () => {
    expect(resolveCard(catalogue, "openai", "no-such-model-for-leases")).toBeNull();
    expect(resolveCard(catalogue, "openai", "")).toBeNull();
    expect(resolveCard(catalogue, "anthropic", "gpt-5.5")).toBeNull();
    // Memoised answers stay the same.
    expect(resolveCard(catalogue, "openai", "no-such-model-for-leases")).toBeNull();
  });

  it("lets an operator card override by exact id, even for Bedrock ARNs", () => {
    const arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123";
    const custom = PriceCatalogue.fromCards([
      ...SEED_PRICE_CARDS,
      {
        provider: "bedrock",
        model: arn,
        inputPerMtok: "3",
        outputPerMtok: "15",
        cachedInputPerMtok: null,
        cacheWrite5mPerMtok: null,
        cacheWrite1hPerMtok: null,
        source: "operator",
        sourceDate: "2026-11-30",
      },
    ]);
    expect(custom.resolve("bedrock", arn)?.card.model).toBe(arn);
  });
});
