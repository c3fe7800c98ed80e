import { grantLease } from "@breakwater/core";
import { leaseGrantRequest } from "../schemas/leases";
import { gate, type Handler, validate } from "./gate";
import { answered, LEASE_BODY_LIMIT, orLeaseUnavailable } from "./lease-common";

/** POST /api/v1/budgets/lease (spec §5): grant, ineligible or deny; 409 past the run's holder cap. */
export const leaseGrant: Handler = async (ctx, req) => {
  const { key, body } = await gate(ctx, req, { limit: LEASE_BODY_LIMIT });
  const input = validate(leaseGrantRequest, body);
  return orLeaseUnavailable(
    grantLease(ctx.lease, {
      projectId: key.projectId,
      agentRunId: input.agent_run_id,
      holderId: input.holder_id,
      provider: input.provider,
      model: input.model,
      fallbackProviders: input.fallback_providers,
      fallbackModels: input.fallback_models,
      failOpen: input.fail_open,
      estimatedInputTokens: input.estimated_input_tokens,
      runDirective: input.run_directive_version === "1",
    }),
    answered,
  );
};
