// Provider and service-tier vocabulary of the SDK wire protocol (spec §0), as pricing sees it.
// Core cannot import the wire package (wire depends on core), so the closed sets live here too.

/** ProviderName values of the wire protocol, in spec order. */
export const PROVIDER_IDS = [
  "openai",
  "anthropic",
  "google",
  "bedrock",
  "xai",
  "deepseek",
  "mistral",
  "qwen",
  "zai",
  "groq",
  "together",
  "fireworks",
  "perplexity",
  "azure_openai",
  "openrouter",
  "ollama",
  "vllm",
  "lmstudio",
  "openai_compatible",
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

const PROVIDER_ID_SET: ReadonlySet<string> = new Set(PROVIDER_IDS);

/** True when `s` is a ProviderName of the wire protocol. */
export function isProviderId(s: string): s is ProviderId {
  return PROVIDER_ID_SET.has(s);
}

/** Lanes that run on the customer's own hardware: every model costs 0 there. */
export const LOCAL_LANES: ReadonlySet<ProviderId> = new Set<ProviderId>(["ollama", "vllm", "lmstudio"]);

/** True for ollama, vllm and lmstudio. */
export function isLocalLane(provider: string): boolean {
  return LOCAL_LANES.has(provider as ProviderId);
}

/** The closed ServiceTier set of the confirm request (spec §0). */
export const SERVICE_TIER_VALUES = [
  "auto",
  "default",
  "flex",
  "scale",
  "priority",
  "standard",
  "optimized",
] as const;
export type ServiceTier = (typeof SERVICE_TIER_VALUES)[number];

const SERVICE_TIER_SET: ReadonlySet<string> = new Set(SERVICE_TIER_VALUES);

/**
 * The tier as a member of the closed set, or null when it is not one (ingest then answers
 * `unknown_service_tier` or prices at standard — its choice). Case and surrounding blanks are
 * ignored because providers echo tiers in their own spelling ("Flex", "priority ").
 */
export function parseServiceTier(tier: string | null | undefined): ServiceTier | null {
  if (tier == null) return null;
  const t = tier.trim().toLowerCase();
  return SERVICE_TIER_SET.has(t) ? (t as ServiceTier) : null;
}

/** Tiers billed at list price everywhere: the provider's normal lane under another name. */
export const STANDARD_TIERS: ReadonlySet<ServiceTier> = new Set<ServiceTier>([
  "auto",
  "default",
  "standard",
  "scale",
]);
