import { z } from "zod";
import {
  AGENT_RUN_ID_MAX,
  BUDGET_MODES,
  DENIED_BY_PERIODS,
  FALLBACK_MAX,
  model,
  providerName,
  tokenCount,
} from "./common";
import { runControlDirective } from "./responses";

/** Lease ids are `lse_` + 24 hex; the SDK bounds them (and holder ids) at 64 characters (spec §5). */
export const LEASE_ID_MAX = 64;
export const HOLDER_ID_MAX = 64;

const versionOne = z.literal("1").nullish();
const counter = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const generation = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const leaseId = z.string().min(1).max(LEASE_ID_MAX);
const holderId = z.string().max(HOLDER_ID_MAX);
const fallbackProviders = z
  .array(providerName)
  .max(FALLBACK_MAX)
  .default(() => []);
const fallbackModels = z
  .array(model)
  .max(FALLBACK_MAX)
  .default(() => []);

function aligned(
  v: { fallback_providers: unknown[]; fallback_models: unknown[] },
  ctx: z.RefinementCtx,
): void {
  if (v.fallback_providers.length !== v.fallback_models.length) {
    ctx.addIssue({
      code: "custom",
      path: ["fallback_models"],
      message: "fallback_providers and fallback_models must have the same length",
      params: { pydanticType: "value_error" },
    });
  }
}

/** POST /api/v1/budgets/lease (spec §5). */
export const leaseGrantRequest = z
  .strictObject({
    agent_run_id: z.string().min(1).max(AGENT_RUN_ID_MAX),
    holder_id: holderId,
    model: model.min(1),
    provider: providerName,
    fallback_providers: fallbackProviders,
    fallback_models: fallbackModels,
    fail_open: z.boolean().default(true),
    estimated_input_tokens: tokenCount.default(0),
    run_directive_version: versionOne,
  })
  .superRefine(aligned);
export type LeaseGrantRequest = z.output<typeof leaseGrantRequest>;

/** POST /api/v1/budgets/lease/renew (spec §5): the chain re-declaration is optional. */
export const leaseRenewRequest = z
  .strictObject({
    lease_id: leaseId,
    holder_id: holderId,
    generation,
    spent_tokens: counter.default(0),
    reserved_tokens: counter.default(0),
    uncounted_calls: counter.default(0),
    uncounted_tokens: counter.default(0),
    model: model.min(1).nullish(),
    provider: providerName.nullish(),
    fallback_providers: fallbackProviders,
    fallback_models: fallbackModels,
    run_directive_version: versionOne,
  })
  .superRefine(aligned);
export type LeaseRenewRequest = z.output<typeof leaseRenewRequest>;

/** POST /api/v1/budgets/lease/surrender (spec §5). */
export const leaseSurrenderRequest = z.strictObject({
  lease_id: leaseId,
  holder_id: holderId,
  generation,
  spent_tokens: counter.default(0),
});
export type LeaseSurrenderRequest = z.output<typeof leaseSurrenderRequest>;

/**
 * The one grant/renew answer shape (spec §5): always the budget amounts; a grant adds all eight
 * lease keys; an ineligible answer adds `ineligible_reason`; a deny `denied_by_period` (and
 * `run_control` for a stopped run when asked). Absent keys are omitted.
 */
export const leaseGrantResponse = z.strictObject({
  eligible: z.boolean(),
  allowed: z.boolean(),
  ineligible_reason: z.enum(["zero_rate_model", "unit_priced_model", "scoped_rules_present"]).optional(),
  denied_by_period: z.enum(DENIED_BY_PERIODS).optional(),
  run_control: runControlDirective.optional(),
  lease_id: z.string().max(LEASE_ID_MAX).optional(),
  generation: z.number().int().min(1).optional(),
  granted_tokens: z.number().int().min(0).optional(),
  refresh_interval_s: z.number().positive().optional(),
  lease_length_s: z.number().positive().optional(),
  headroom_share_tokens: z.number().int().min(0).optional(),
  posture: z
    .strictObject({ mode: z.enum(BUDGET_MODES), on_unreachable: z.enum(["fail_open", "local_enforce"]) })
    .optional(),
  final_grant: z.boolean().optional(),
  project_id: z.string(),
  mode: z.enum(BUDGET_MODES),
  budget_limit: z.number(),
  current_usage: z.number(),
  remaining_budget: z.number(),
});
export type LeaseGrantResponse = z.infer<typeof leaseGrantResponse>;

export const leaseSurrenderResponse = z.strictObject({ released_tokens: z.number().int().min(0) });

export const LEASE_ERROR_CODES = [
  "lease_not_found",
  "lease_generation_conflict",
  "lease_holder_cap_exceeded",
  "lease_unavailable",
] as const;
export const leaseError = z.strictObject({
  detail: z.strictObject({ code: z.enum(LEASE_ERROR_CODES), message: z.string() }),
});
