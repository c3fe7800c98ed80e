import { renewLease } from "@breakwater/core";
import { leaseRenewRequest } from "../schemas/leases";
import { gate, type Handler, validate } from "./gate";
import { answered, LEASE_BODY_LIMIT, orLeaseUnavailable } from "./lease-common";

/**
 * POST /api/v1/budgets/lease/renew (spec §5): the successor of the current generation, the stored
 * answer for its predecessor, 409 otherwise; 404 for an unknown, expired or another project's lease.
 */
export const leaseRenew: Handler = async (ctx, req) => {
  const { key, body } = await gate(ctx, req, { limit: LEASE_BODY_LIMIT });
  const input = validate(leaseRenewRequest, body);
  return orLeaseUnavailable(
    renewLease(ctx.lease, {
      projectId: key.projectId,
      leaseId: input.lease_id,
      holderId: input.holder_id,
      generation: input.generation,
      spentTokens: input.spent_tokens,
      reservedTokens: input.reserved_tokens,
      uncountedCalls: input.uncounted_calls,
      uncountedTokens: input.uncounted_tokens,
      provider: input.provider ?? null,
      model: input.model ?? null,
      fallbackProviders: input.fallback_providers,
      fallbackModels: input.fallback_models,
      runDirective: input.run_directive_version === "1",
    }),
    answered,
  );
};
