import { confirmSpend, type TokenDetailsInput } from "@breakwater/core";
import { noContent } from "../errors";
import { type ConfirmRequest, confirmRequest } from "../schemas/requests";
import { BODY_LIMITS, gate, type Handler, validate } from "./gate";

/** POST /api/v1/budgets/confirm (spec §2): settles a reservation (or lease) with the call's actual usage. */
export const confirm: Handler = async (ctx, req) => {
  const { key, body } = await gate(ctx, req, { limit: BODY_LIMITS.confirm });
  const input: ConfirmRequest = validate(confirmRequest, body);
  await confirmSpend(ctx.budget, {
    projectId: key.projectId,
    reservationId: input.reservation_id ?? undefined,
    leaseId: input.lease_id ?? undefined,
    callId: input.call_id,
    provider: input.provider,
    model: input.model,
    modality: input.modality,
    tokenDetails: input.token_details as unknown as TokenDetailsInput,
    mediaUsage: input.media_usage ?? null,
    serviceTier: input.service_tier ?? null,
    providerRegion: input.provider_region ?? null,
    isProviderFallback: input.is_provider_fallback,
  });
  ctx.thresholds?.touch(key.projectId);
  return noContent();
};
