import type { PriceCatalogue, ResolvedModel } from "./price-catalogue";
import type { ProviderId } from "./providers";

/**
 * The card pricing `model` on `provider`, or null when the model is unpriced. Resolution order:
 * exact id or alias (case-insensitive) → normalised id (dated snapshot -2025-04-14 / -20250929,
 * Vertex @version, `models/` prefix, `[1m]` suffix, -latest) → card patterns. Bedrock ids lose
 * their ARN, geo prefix (us./eu./apac./jp./global.…), date and version suffix (the geo prefix is
 * kept as the endpoint scope); OpenRouter `vendor/model[:variant]` ids price at the vendor's card
 * (`:free` = 0); Azure OpenAI falls back to OpenAI's cards; local lanes always resolve to 0.
 * O(1) for exact ids, memoised for the rest.
 */
export function resolveCard(
  catalogue: PriceCatalogue,
  provider: ProviderId,
  model: string,
): ResolvedModel | null {
  return catalogue.resolve(provider, model);
}
