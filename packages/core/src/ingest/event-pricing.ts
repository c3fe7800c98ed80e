import type { BudgetPricing, TokenDetailsInput } from "../budgets/budget-pricing";
import type { EventPricing, IngestEvent } from "./ingest-metadata-events";

/** The 13 integer counters of the wire's TokenDetails. */
const TOKEN_DETAIL_KEYS = [
  "input_tokens",
  "output_tokens",
  "cached_input_tokens",
  "cache_creation_5m_tokens",
  "cache_creation_1h_tokens",
  "reasoning_tokens",
  "audio_input_tokens",
  "audio_output_tokens",
  "image_input_tokens",
  "image_output_tokens",
  "accepted_prediction_tokens",
  "rejected_prediction_tokens",
  "tool_use_input_tokens",
] as const;

/** The event's token details (absent counters = 0; no details = its input/output totals). */
export function tokenDetailsOf(
  e: Pick<IngestEvent, "token_details" | "input_tokens" | "output_tokens">,
): TokenDetailsInput {
  const td = (e.token_details ?? { input_tokens: e.input_tokens, output_tokens: e.output_tokens }) as Record<
    string,
    unknown
  >;
  const out = {} as Record<string, number>;
  for (const k of TOKEN_DETAIL_KEYS) out[k] = typeof td[k] === "number" ? (td[k] as number) : 0;
  return out as unknown as TokenDetailsInput;
}

/** The fields of an event its price depends on (a stored event re-priced later carries the same). */
export type PricedEventFields = Pick<
  IngestEvent,
  | "provider"
  | "model"
  | "modality"
  | "token_details"
  | "input_tokens"
  | "output_tokens"
  | "media_usage"
  | "service_tier"
  | "provider_region"
  | "receipt_aggregate_count"
  | "receipt_pricing_input_tokens"
  | "estimated_output_bound"
>;

/**
 * Event pricing for ingest and for re-pricing stored events: served calls at their actual token
 * cost; denied calls at what the check would have reserved (input at the input rate plus the
 * output bound at the output rate). An aggregate receipt prices its average call and multiplies,
 * so long-context brackets follow the per-call size, not the sum.
 */
export function eventPricing(pricing: BudgetPricing, defaultOutputBound: number): EventPricing {
  return {
    actualCostNanos: (e: PricedEventFields) =>
      pricing.callCostNanos({
        provider: e.provider,
        model: e.model,
        modality: e.modality,
        tokenDetails: tokenDetailsOf(e),
        mediaUsage: (e.media_usage as never) ?? null,
        serviceTier: e.service_tier ?? null,
        providerRegion: e.provider_region ?? null,
      }),
    avoidedCostNanos: (e: PricedEventFields) => {
      const count = Math.max(1, e.receipt_aggregate_count ?? 1);
      const input = e.receipt_pricing_input_tokens ?? e.input_tokens;
      const per = pricing.reservationNanos({
        provider: e.provider,
        model: e.model,
        modality: e.modality,
        estimatedInputTokens: Math.round(input / count),
        outputTokenBound: e.estimated_output_bound ?? defaultOutputBound,
      });
      return per === null ? null : per * BigInt(count);
    },
  };
}
