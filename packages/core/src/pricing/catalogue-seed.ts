/**
 * Seed price catalogue: public list prices, USD per million tokens, standard (on-demand) tier.
 *
 * Figures taken 2026-11-30 (every card's sourceDate). Each card names the provider's own pricing
 * page as its source; the figures were read from public copies of those pages and cross-checked
 * against at least one other public listing where the two could disagree. Where the copies
 * disagreed or a newer model's price could not be pinned down, the model is left out rather than
 * guessed (it is then "unpriced": counted in tokens, never shown as $0). Operators edit cards in
 * the dashboard; `seedPriceCatalogue` never overwrites an edited card.
 *
 * Conventions:
 * - `cached` = cache reads ("cache hits"); null means the provider publishes no discount, so reads
 *   bill at the input rate. `w5`/`w1` = cache writes with a 5-minute / 1-hour TTL (Anthropic: 1.25× and
 *   2× input; OpenAI GPT-5.6+: 1.25× input for either field). Null = billed at the input rate.
 * - `long` = whole-request repricing once input tokens (which include cache reads and writes)
 *   exceed the threshold, as Anthropic, Google, OpenAI and xAI bill it.
 * - Bedrock cards are keyed by `vendor.model` without geo prefix, date or version suffix
 *   (`anthropic.claude-sonnet-4-5`); resolution maps every Bedrock id and ARN onto that key.
 *   Claude 4.5 and later cost 10% more on regional endpoints (in-region ids and us./eu./apac./jp.
 *   geo profiles) than on `global.` profiles; service tiers flex 0.5×, priority 1.75×, optimized
 *   (latency-optimized) 1.25× apply to every Bedrock card unless a card says otherwise.
 * - Local lanes (ollama, vllm, lmstudio) need no cards: every model there costs 0.
 */
import type { PriceCardInput } from "./price-card";
import type { ProviderId } from "./providers";

export const SEED_SOURCE_DATE = "2026-11-30";

const SOURCES: Record<string, string> = {
  openai: "https://developers.openai.com/api/docs/pricing",
  anthropic: "https://platform.claude.com/docs/en/about-claude/pricing",
  google: "https://ai.google.dev/gemini-api/docs/pricing",
  bedrock: "https://aws.amazon.com/bedrock/pricing/",
  xai: "https://docs.x.ai/developers/pricing",
  deepseek: "https://api-docs.deepseek.com/quick_start/pricing",
  mistral: "https://mistral.ai/pricing#api-pricing",
  qwen: "https://www.alibabacloud.com/help/en/model-studio/models",
  zai: "https://docs.z.ai/guides/overview/pricing",
  groq: "https://groq.com/pricing",
  together: "https://www.together.ai/pricing",
  fireworks: "https://fireworks.ai/pricing",
  perplexity: "https://docs.perplexity.ai/getting-started/pricing",
};

interface Long {
  threshold: number;
  input: string;
  output: string;
  cached?: string;
  w5?: string;
  w1?: string;
}

interface TokenOpts {
  cached?: string;
  w5?: string;
  w1?: string;
  long?: Long;
  aliases?: string[];
  patterns?: string[];
  tiers?: Record<string, string>;
  regions?: Record<string, string>;
  notes?: string;
}

function tok(
  provider: ProviderId,
  model: string,
  input: string,
  output: string,
  o: TokenOpts = {},
): PriceCardInput {
  return {
    provider,
    model,
    aliases: o.aliases ?? [],
    patterns: o.patterns ?? [],
    unit: "token",
    inputPerMtok: input,
    cachedInputPerMtok: o.cached ?? null,
    cacheWrite5mPerMtok: o.w5 ?? null,
    cacheWrite1hPerMtok: o.w1 ?? null,
    outputPerMtok: output,
    longContext: o.long
      ? {
          threshold: o.long.threshold,
          inputPerMtok: o.long.input,
          cachedInputPerMtok: o.long.cached ?? null,
          cacheWrite5mPerMtok: o.long.w5 ?? null,
          cacheWrite1hPerMtok: o.long.w1 ?? null,
          outputPerMtok: o.long.output,
        }
      : null,
    unitPrices: {},
    regionMultipliers: o.regions ?? {},
    tierMultipliers: o.tiers ?? {},
    source: SOURCES[provider] ?? "",
    sourceDate: SEED_SOURCE_DATE,
    notes: o.notes ?? null,
  };
}

function media(
  provider: ProviderId,
  model: string,
  unit: "image" | "second" | "minute" | "mchar",
  unitPrices: Record<string, string>,
  o: { aliases?: string[]; notes?: string } = {},
): PriceCardInput {
  return {
    ...tok(provider, model, "0", "0", o),
    unit,
    unitPrices,
  };
}

// OpenAI service tiers, per card where published: Flex is half price; Priority multiplies every rate.
const FLEX = { flex: "0.5" };

// ───────────────────────────────────────── OpenAI ─────────────────────────────────────────
const OPENAI: PriceCardInput[] = [
  tok("openai", "gpt-6-sol", "2.00", "10.00", {
    cached: "0.20",
    w5: "2.50",
    w1: "2.50",
    notes:
      "Effective 2026-09-22. Long-context (>272K input) tariff not captured: long prompts are priced at these rates.",
  }),
  tok("openai", "gpt-6-luna", "0.10", "0.50", {
    cached: "0.01",
    w5: "0.125",
    w1: "0.125",
    notes:
      "Effective 2026-09-22. Long-context (>272K input) tariff not captured: long prompts are priced at these rates.",
  }),
  tok("openai", "gpt-5.6-sol", "5.00", "30.00", {
    aliases: ["gpt-5.6"],
    cached: "0.50",
    w5: "6.25",
    w1: "6.25",
    long: { threshold: 272_000, input: "10.00", cached: "1.00", w5: "12.50", w1: "12.50", output: "45.00" },
  }),
  tok("openai", "gpt-5.6-terra", "2.00", "12.00", {
    cached: "0.20",
    w5: "2.50",
    w1: "2.50",
    long: { threshold: 272_000, input: "4.00", cached: "0.40", w5: "5.00", w1: "5.00", output: "18.00" },
    notes: "Price cut of 2026-07-30 applied.",
  }),
  tok("openai", "gpt-5.6-luna", "0.20", "1.20", {
    cached: "0.02",
    w5: "0.25",
    w1: "0.25",
    long: { threshold: 200_000, input: "0.40", cached: "0.04", w5: "0.50", w1: "0.50", output: "1.80" },
    notes: "Price cut of 2026-07-30 applied.",
  }),
  tok("openai", "gpt-5.5", "5.00", "30.00", {
    cached: "0.50",
    long: { threshold: 272_000, input: "10.00", cached: "1.00", output: "45.00" },
    tiers: { ...FLEX, priority: "2.5" },
  }),
  tok("openai", "gpt-5.5-pro", "30.00", "180.00"),
  tok("openai", "gpt-5.4", "2.50", "15.00", {
    cached: "0.25",
    long: { threshold: 272_000, input: "5.00", cached: "0.50", output: "22.50" },
    tiers: { ...FLEX, priority: "2" },
  }),
  tok("openai", "gpt-5.4-mini", "0.75", "4.50", { cached: "0.075", tiers: FLEX }),
  tok("openai", "gpt-5.4-nano", "0.20", "1.25", { cached: "0.02", tiers: FLEX }),
  tok("openai", "gpt-5.4-pro", "30.00", "180.00"),
  tok("openai", "gpt-5.3-codex", "1.75", "14.00", { cached: "0.175" }),
  tok("openai", "gpt-5.2", "1.75", "14.00", {
    aliases: ["gpt-5.2-chat-latest", "gpt-5.2-codex"],
    cached: "0.175",
    tiers: FLEX,
  }),
  tok("openai", "gpt-5.2-pro", "21.00", "168.00"),
  tok("openai", "gpt-5.1", "1.25", "10.00", {
    aliases: ["gpt-5.1-chat-latest", "gpt-5.1-codex", "gpt-5.1-codex-max"],
    cached: "0.125",
    tiers: { ...FLEX, priority: "2" },
  }),
  tok("openai", "gpt-5.1-codex-mini", "0.25", "2.00", { cached: "0.025" }),
  tok("openai", "gpt-5", "1.25", "10.00", {
    aliases: ["gpt-5-2025-08-07", "gpt-5-chat-latest", "gpt-5-codex"],
    cached: "0.125",
    tiers: { ...FLEX, priority: "2" },
  }),
  tok("openai", "gpt-5-mini", "0.25", "2.00", {
    aliases: ["gpt-5-mini-2025-08-07"],
    cached: "0.025",
    tiers: { ...FLEX, priority: "1.8" },
  }),
  tok("openai", "gpt-5-nano", "0.05", "0.40", {
    aliases: ["gpt-5-nano-2025-08-07"],
    cached: "0.005",
    tiers: FLEX,
  }),
  tok("openai", "gpt-5-pro", "15.00", "120.00", { aliases: ["gpt-5-pro-2025-10-06"] }),
  tok("openai", "gpt-4.1", "2.00", "8.00", {
    aliases: ["gpt-4.1-2025-04-14"],
    cached: "0.50",
    tiers: { priority: "1.75" },
  }),
  tok("openai", "gpt-4.1-mini", "0.40", "1.60", {
    aliases: ["gpt-4.1-mini-2025-04-14"],
    cached: "0.10",
    tiers: { priority: "1.75" },
  }),
  tok("openai", "gpt-4.1-nano", "0.10", "0.40", {
    aliases: ["gpt-4.1-nano-2025-04-14"],
    cached: "0.025",
    tiers: { priority: "2" },
  }),
  tok("openai", "gpt-4o", "2.50", "10.00", {
    aliases: ["gpt-4o-2024-08-06", "gpt-4o-2024-11-20"],
    cached: "1.25",
    tiers: { priority: "1.7" },
  }),
  // The first gpt-4o snapshot kept its launch price; it must not fall through to the gpt-4o card.
  tok("openai", "gpt-4o-2024-05-13", "5.00", "15.00"),
  tok("openai", "gpt-4o-mini", "0.15", "0.60", { aliases: ["gpt-4o-mini-2024-07-18"], cached: "0.075" }),
  tok("openai", "o3", "2.00", "8.00", {
    aliases: ["o3-2025-04-16"],
    cached: "0.50",
    tiers: { ...FLEX, priority: "1.75" },
  }),
  tok("openai", "o3-pro", "20.00", "80.00", { aliases: ["o3-pro-2025-06-10"] }),
  tok("openai", "o3-mini", "1.10", "4.40", { aliases: ["o3-mini-2025-01-31"], cached: "0.55" }),
  tok("openai", "o4-mini", "1.10", "4.40", { aliases: ["o4-mini-2025-04-16"], cached: "0.275", tiers: FLEX }),
  tok("openai", "o1", "15.00", "60.00", { aliases: ["o1-2024-12-17"], cached: "7.50" }),
  tok("openai", "text-embedding-3-small", "0.02", "0"),
  tok("openai", "text-embedding-3-large", "0.13", "0"),
  tok("openai", "text-embedding-ada-002", "0.10", "0"),
  media("openai", "dall-e-3", "image", {
    default: "0.04",
    "standard:1024x1024": "0.04",
    "standard:1024x1792": "0.08",
    "standard:1792x1024": "0.08",
    "hd:1024x1024": "0.08",
    "hd:1024x1792": "0.12",
    "hd:1792x1024": "0.12",
  }),
  media("openai", "whisper-1", "minute", { default: "0.006" }),
  media("openai", "tts-1", "mchar", { default: "15.00" }),
  media("openai", "tts-1-hd", "mchar", { default: "30.00" }),
];

// ──────────────────────────────────────── Anthropic ────────────────────────────────────────
// 5m writes = 1.25× input, 1h writes = 2× input, reads 0.1× (Sonnet 5.5 since 2026-10-07 and
// Opus 5.5: 0.05×; Fable 5.1: 0.025×).
function claude(
  model: string,
  input: string,
  output: string,
  cached: string,
  w5: string,
  w1: string,
  o: TokenOpts = {},
) {
  return tok("anthropic", model, input, output, { cached, w5, w1, ...o });
}

// Sonnet 4 and 4.5 bill a 1M-context request above 200K input tokens at 2× input, 1.5× output.
const SONNET_4_LONG: Long = {
  threshold: 200_000,
  input: "6.00",
  cached: "0.60",
  w5: "7.50",
  w1: "12.00",
  output: "22.50",
};

const ANTHROPIC: PriceCardInput[] = [
  claude("claude-fable-5-1", "10.00", "50.00", "0.25", "12.50", "20.00"),
  claude("claude-fable-5", "10.00", "50.00", "1.00", "12.50", "20.00"),
  claude("claude-opus-5-5", "4.00", "20.00", "0.20", "5.00", "8.00"),
  claude("claude-opus-5", "5.00", "25.00", "0.50", "6.25", "10.00"),
  claude("claude-sonnet-5-5", "2.00", "10.00", "0.10", "2.50", "4.00", {
    notes: "Cache-read price cut from 0.20 to 0.10 on 2026-10-07.",
  }),
  claude("claude-sonnet-5", "2.00", "10.00", "0.20", "2.50", "4.00"),
  claude("claude-haiku-5-5", "0.10", "0.50", "0.01", "0.125", "0.20", {
    long: { threshold: 100_000, input: "0.50", cached: "0.05", w5: "0.625", w1: "1.00", output: "2.50" },
  }),
  claude("claude-opus-4-8", "5.00", "25.00", "0.50", "6.25", "10.00"),
  claude("claude-opus-4-7", "5.00", "25.00", "0.50", "6.25", "10.00"),
  claude("claude-opus-4-6", "5.00", "25.00", "0.50", "6.25", "10.00"),
  claude("claude-opus-4-5", "5.00", "25.00", "0.50", "6.25", "10.00", {
    aliases: ["claude-opus-4-5-20251101"],
  }),
  claude("claude-opus-4-1", "15.00", "75.00", "1.50", "18.75", "30.00", {
    aliases: ["claude-opus-4-1-20250805"],
  }),
  claude("claude-opus-4", "15.00", "75.00", "1.50", "18.75", "30.00", {
    aliases: ["claude-opus-4-20250514", "claude-opus-4-0"],
  }),
  claude("claude-sonnet-4-6", "3.00", "15.00", "0.30", "3.75", "6.00"),
  claude("claude-sonnet-4-5", "3.00", "15.00", "0.30", "3.75", "6.00", {
    aliases: ["claude-sonnet-4-5-20250929"],
    long: SONNET_4_LONG,
  }),
  claude("claude-sonnet-4", "3.00", "15.00", "0.30", "3.75", "6.00", {
    aliases: ["claude-sonnet-4-20250514", "claude-sonnet-4-0"],
    long: SONNET_4_LONG,
  }),
  claude("claude-3-7-sonnet", "3.00", "15.00", "0.30", "3.75", "6.00", {
    aliases: ["claude-3-7-sonnet-20250219", "claude-3-7-sonnet-latest"],
  }),
  claude("claude-haiku-4-5", "1.00", "5.00", "0.10", "1.25", "2.00", {
    aliases: ["claude-haiku-4-5-20251001"],
  }),
  claude("claude-3-5-haiku", "0.80", "4.00", "0.08", "1.00", "1.60", {
    aliases: ["claude-3-5-haiku-20241022", "claude-3-5-haiku-latest"],
  }),
  claude("claude-3-haiku", "0.25", "1.25", "0.03", "0.30", "0.50", { aliases: ["claude-3-haiku-20240307"] }),
];

// ───────────────────────────────────────── Google ─────────────────────────────────────────
const GOOGLE: PriceCardInput[] = [
  tok("google", "gemini-3.5-flash", "1.50", "9.00", { cached: "0.15" }),
  tok("google", "gemini-3.1-pro-preview", "2.00", "12.00", {
    aliases: ["gemini-3.1-pro"],
    cached: "0.20",
    long: { threshold: 200_000, input: "4.00", cached: "0.40", output: "18.00" },
  }),
  tok("google", "gemini-3-pro-preview", "2.00", "12.00", {
    cached: "0.20",
    long: { threshold: 200_000, input: "4.00", cached: "0.40", output: "18.00" },
  }),
  tok("google", "gemini-3-flash-preview", "0.50", "3.00", { cached: "0.05" }),
  tok("google", "gemini-2.5-pro", "1.25", "10.00", {
    cached: "0.125",
    long: { threshold: 200_000, input: "2.50", cached: "0.25", output: "15.00" },
    patterns: ["^gemini-2\\.5-pro-preview-\\d{2}-\\d{2}$"],
  }),
  tok("google", "gemini-2.5-flash", "0.30", "2.50", {
    cached: "0.03",
    patterns: ["^gemini-2\\.5-flash-preview-\\d{2}-(\\d{2}|\\d{4})$"],
    notes: "Audio input is billed higher than text; audio tokens are priced at the text rate here.",
  }),
  tok("google", "gemini-2.5-flash-lite", "0.10", "0.40", {
    cached: "0.01",
    patterns: ["^gemini-2\\.5-flash-lite-preview-\\d{2}-(\\d{2}|\\d{4})$"],
  }),
  tok("google", "gemini-2.0-flash", "0.10", "0.40", { aliases: ["gemini-2.0-flash-001"], cached: "0.025" }),
  tok("google", "gemini-2.0-flash-lite", "0.075", "0.30", { aliases: ["gemini-2.0-flash-lite-001"] }),
  tok("google", "gemini-embedding-001", "0.15", "0"),
];

// ───────────────────────────────────────── Bedrock ─────────────────────────────────────────
const REGIONAL_PREMIUM = { "endpoint:geo": "1.1", "endpoint:in_region": "1.1" };

/** Claude on Bedrock bills at Anthropic's list price (global endpoint). */
function bedrockClaude(model: string, regionalPremium: boolean): PriceCardInput {
  const base = ANTHROPIC.find((c) => c.model === model);
  if (!base) throw new Error(`no Anthropic card for ${model}`);
  return {
    ...base,
    provider: "bedrock",
    model: `anthropic.${model}`,
    aliases: [],
    patterns: [],
    regionMultipliers: regionalPremium ? REGIONAL_PREMIUM : {},
    source: SOURCES.bedrock ?? "",
    notes: regionalPremium
      ? "Regional (in-region and geo cross-region) endpoints cost 10% more than global."
      : null,
  };
}

const BEDROCK: PriceCardInput[] = [
  ...["claude-opus-5-5", "claude-opus-5", "claude-sonnet-5-5", "claude-sonnet-5", "claude-haiku-5-5"].map(
    (m) => bedrockClaude(m, true),
  ),
  ...["claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5"].map((m) =>
    bedrockClaude(m, true),
  ),
  ...["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-4-5"].map((m) => bedrockClaude(m, true)),
  ...[
    "claude-opus-4-1",
    "claude-opus-4",
    "claude-sonnet-4",
    "claude-3-7-sonnet",
    "claude-3-5-haiku",
    "claude-3-haiku",
  ].map((m) => bedrockClaude(m, false)),
  tok("bedrock", "amazon.nova-premier", "2.50", "12.50"),
  tok("bedrock", "amazon.nova-pro", "0.80", "3.20"),
  tok("bedrock", "amazon.nova-lite", "0.06", "0.24"),
  tok("bedrock", "amazon.nova-micro", "0.035", "0.14"),
  tok("bedrock", "meta.llama3-3-70b-instruct", "0.72", "0.72"),
  tok("bedrock", "meta.llama3-1-70b-instruct", "0.72", "0.72"),
  tok("bedrock", "meta.llama3-1-8b-instruct", "0.22", "0.22"),
  tok("bedrock", "openai.gpt-oss-120b", "0.15", "0.60"),
  tok("bedrock", "openai.gpt-oss-20b", "0.07", "0.30"),
].map((c) => ({ ...c, source: SOURCES.bedrock ?? c.source }));

// ─────────────────────────────────────────── xAI ───────────────────────────────────────────
const XAI: PriceCardInput[] = [
  tok("xai", "grok-4.3", "1.25", "2.50", { aliases: ["grok-4.3-latest"], cached: "0.20" }),
  tok("xai", "grok-4.20-0309-reasoning", "1.25", "2.50", {
    aliases: [
      "grok-4.20-0309-non-reasoning",
      "grok-4.20-multi-agent-0309",
      "grok-4.20",
      "grok-4.20-reasoning",
      "grok-4.20-non-reasoning",
    ],
    cached: "0.20",
  }),
  tok("xai", "grok-4-1-fast-reasoning", "0.20", "0.50", {
    aliases: [
      "grok-4-1-fast-non-reasoning",
      "grok-4.1-fast",
      "grok-4.1-fast-reasoning",
      "grok-4.1-fast-non-reasoning",
    ],
    cached: "0.05",
  }),
  tok("xai", "grok-4-fast-reasoning", "0.20", "0.50", {
    aliases: ["grok-4-fast-non-reasoning", "grok-4-fast"],
    cached: "0.05",
    long: { threshold: 128_000, input: "0.40", output: "1.00" },
  }),
  tok("xai", "grok-4-0709", "3.00", "15.00", {
    aliases: ["grok-4", "grok-4-latest"],
    cached: "0.75",
    long: { threshold: 128_000, input: "6.00", output: "30.00" },
  }),
  tok("xai", "grok-code-fast-1", "0.20", "1.50", { cached: "0.02" }),
  tok("xai", "grok-3", "3.00", "15.00", { aliases: ["grok-3-latest"], cached: "0.75" }),
  tok("xai", "grok-3-mini", "0.30", "0.50", { aliases: ["grok-3-mini-latest"], cached: "0.075" }),
  media("xai", "grok-imagine-image", "image", { default: "0.02" }),
  media("xai", "grok-imagine-image-pro", "image", { default: "0.07" }),
  media("xai", "grok-imagine-video", "second", { default: "0.05" }),
];

// ──────────────────────────────────── Other hosted APIs ────────────────────────────────────
const OTHERS: PriceCardInput[] = [
  // DeepSeek: cache-hit prices cut to a tenth on 2026-04-26; deepseek-chat/-reasoner map to V4 Flash.
  tok("deepseek", "deepseek-v4-flash", "0.14", "0.28", {
    aliases: ["deepseek-chat", "deepseek-reasoner"],
    cached: "0.0028",
  }),
  tok("deepseek", "deepseek-v4-pro", "1.74", "3.48", {
    cached: "0.0145",
    notes: "List price (launch discount ended 2026-05-31).",
  }),

  tok("mistral", "mistral-medium-2508", "0.40", "2.00", {
    aliases: ["mistral-medium-latest", "mistral-medium-2505", "mistral-medium-3"],
  }),
  tok("mistral", "mistral-small-2506", "0.10", "0.30", { aliases: ["mistral-small-latest"] }),
  tok("mistral", "mistral-large-2411", "2.00", "6.00"),
  tok("mistral", "codestral-2508", "0.30", "0.90", { aliases: ["codestral-latest"] }),
  tok("mistral", "mistral-embed", "0.10", "0"),

  tok("qwen", "qwen-max", "1.60", "6.40", {
    aliases: ["qwen-max-latest", "qwen-max-2025-01-25"],
    notes: "International (Singapore) endpoint prices.",
  }),

  tok("zai", "glm-4.6", "0.60", "2.20", { cached: "0.11" }),
  tok("zai", "glm-4.5", "0.60", "2.20", { cached: "0.11" }),
  tok("zai", "glm-4.5-air", "0.20", "1.10", { cached: "0.03" }),
  tok("zai", "glm-4.5-flash", "0", "0", { notes: "Free model." }),

  tok("groq", "llama-3.3-70b-versatile", "0.59", "0.79"),
  tok("groq", "llama-3.1-8b-instant", "0.05", "0.08"),
  tok("groq", "moonshotai/kimi-k2-instruct", "1.00", "3.00", {
    aliases: ["moonshotai/kimi-k2-instruct-0905"],
  }),

  tok("together", "meta-llama/llama-3.3-70b-instruct-turbo", "0.88", "0.88"),
  tok("together", "meta-llama/meta-llama-3.1-8b-instruct-turbo", "0.18", "0.18"),
  tok("together", "deepseek-ai/deepseek-v3", "1.25", "1.25"),
  tok("together", "openai/gpt-oss-120b", "0.15", "0.60"),
  tok("together", "openai/gpt-oss-20b", "0.05", "0.20"),

  tok("fireworks", "accounts/fireworks/models/llama-v3p3-70b-instruct", "0.90", "0.90"),
  tok("fireworks", "accounts/fireworks/models/gpt-oss-120b", "0.15", "0.60"),
  tok("fireworks", "accounts/fireworks/models/gpt-oss-20b", "0.07", "0.30"),

  ...(
    [
      ["sonar", "1.00", "1.00"],
      ["sonar-pro", "3.00", "15.00"],
      ["sonar-reasoning-pro", "2.00", "8.00"],
      ["sonar-deep-research", "2.00", "8.00"],
    ] as const
  ).map(([model, input, output]) =>
    tok("perplexity", model, input, output, {
      notes:
        "Token prices only: per-request search fees (and deep-research citation/search charges) are not included.",
    }),
  ),
];

/** The seed catalogue: every card a fresh install starts with. */
export const SEED_PRICE_CARDS: readonly PriceCardInput[] = [
  ...OPENAI,
  ...ANTHROPIC,
  ...GOOGLE,
  ...BEDROCK,
  ...XAI,
  ...OTHERS,
];
