import { surrenderLease } from "@breakwater/core";
import { json } from "../errors";
import { leaseRefusal } from "../lease-errors";
import { leaseSurrenderRequest } from "../schemas/leases";
import { gate, type Handler, validate } from "./gate";
import { LEASE_BODY_LIMIT, orLeaseUnavailable } from "./lease-common";

/** POST /api/v1/budgets/lease/surrender (spec §5): `{"released_tokens":N}`, 0 on a repeat. */
export const leaseSurrender: Handler = async (ctx, req) => {
  const { key, body } = await gate(ctx, req, { limit: LEASE_BODY_LIMIT });
  const input = validate(leaseSurrenderRequest, body);
  return orLeaseUnavailable(
    surrenderLease(ctx.lease, {
      projectId: key.projectId,
      leaseId: input.lease_id,
      holderId: input.holder_id,
      generation: input.generation,
      spentTokens: input.spent_tokens,
    }),
    (o) => (o.ok ? json(200, { released_tokens: o.releasedTokens }) : leaseRefusal(o.refusal)),
  );
};
