import type {
  AuthenticatedKey,
  GrantLeaseInput,
  LeaseAnswer,
  RenewLeaseInput,
  SurrenderLeaseInput,
  SurrenderOutcome,
} from "@breakwater/core";
import { isDomainError } from "@breakwater/core";
import type { z } from "zod";
import { json, rawJson, type WireResult } from "./errors";
import type { WireRequest } from "./http";
import { leaseRefusal, leaseUnavailable } from "./lease-errors";
import { leaseGrantRequest, leaseRenewRequest, leaseSurrenderRequest } from "./schemas/leases";

/** What the lease endpoints call (core's grantLease / renewLease / surrenderLease). */
export interface LeaseServices {
  grantLease(input: GrantLeaseInput): Promise<LeaseAnswer>;
  renewLease(input: RenewLeaseInput): Promise<LeaseAnswer>;
  surrenderLease(input: SurrenderLeaseInput): Promise<SurrenderOutcome>;
}

/** A lease body holds at most nine model ids of 2 KiB. */
export const LEASE_BODY_LIMIT = 64 * 1024;

interface Gate {
  gate(req: WireRequest, limit: number): Promise<{ key: AuthenticatedKey; body: unknown }>;
  validate<S extends z.ZodType>(schema: S, body: unknown): z.output<S>;
}

/** The lease store is the budget Redis: when it cannot answer, the lease envelope says so (spec §5). */
async function orUnavailable<T>(work: Promise<T>, answer: (v: T) => WireResult): Promise<WireResult> {
  try {
    return answer(await work);
  } catch (err) {
    if (isDomainError(err) && err.code === "BUDGET_UNAVAILABLE") return leaseUnavailable();
    throw err;
  }
}

const answered = (a: LeaseAnswer): WireResult => (a.ok ? rawJson(200, a.body) : leaseRefusal(a.refusal));

/**
 * POST /api/v1/budgets/lease, /lease/renew and /lease/surrender (spec §5) behind the same gate as
 * every write endpoint (body limit, key, read-only, admission limit, strict schema). The project
 * is always the key's: another project's lease id is simply not found.
 */
export function createLeaseHandlers(g: Gate, s: LeaseServices) {
  const grant = async (req: WireRequest): Promise<WireResult> => {
    const { key, body } = await g.gate(req, LEASE_BODY_LIMIT);
    const input = g.validate(leaseGrantRequest, body);
    return orUnavailable(
      s.grantLease({
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

  const renew = async (req: WireRequest): Promise<WireResult> => {
    const { key, body } = await g.gate(req, LEASE_BODY_LIMIT);
    const input = g.validate(leaseRenewRequest, body);
    return orUnavailable(
      s.renewLease({
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

  const surrender = async (req: WireRequest): Promise<WireResult> => {
    const { key, body } = await g.gate(req, LEASE_BODY_LIMIT);
    const input = g.validate(leaseSurrenderRequest, body);
    return orUnavailable(
      s.surrenderLease({
        projectId: key.projectId,
        leaseId: input.lease_id,
        holderId: input.holder_id,
        generation: input.generation,
        spentTokens: input.spent_tokens,
      }),
      (o) => (o.ok ? json(200, { released_tokens: o.releasedTokens }) : leaseRefusal(o.refusal)),
    );
  };

  return { grant, renew, surrender };
}
