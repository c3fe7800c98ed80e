import { z } from "zod";
import {
  AGENT_RUN_ID_MAX,
  BUDGET_MODES,
  DENIED_BY_PERIODS,
  INGEST_REJECTION_CODES,
  providerName,
} from "./common";

const finite = z.number();

export const failoverDirective = z.strictObject({
  version: z.literal("1"),
  failover_tuning_allowed: z.boolean(),
});

export const runControlDirective = z.strictObject({
  version: z.literal("1"),
  action: z.literal("terminate"),
  agent_run_id: z.string().max(AGENT_RUN_ID_MAX),
  reason: z.string().min(1).max(64),
});

/**
 * 200 answer of a budget check. Optional keys are omitted (exclude-none) when the request opted in
 * to a directive, and explicit nulls otherwise (spec §0, §8).
 */
export const checkResponse = z.strictObject({
  allowed: z.boolean(),
  remaining_budget: finite,
  reservation_id: z.string().min(1).nullish(),
  mode: z.enum(BUDGET_MODES),
  budget_limit: finite,
  current_usage: finite,
  denied_by_period: z.enum(DENIED_BY_PERIODS).nullish(),
  project_id: z.string(),
  price_hints: z.partialRecord(providerName, finite).nullish(),
  failover_directive: failoverDirective.nullish(),
  run_control: runControlDirective.nullish(),
});
export type CheckResponse = z.infer<typeof checkResponse>;

export const ingestResponse = z.strictObject({
  ingested: z.number().int().min(0),
  rejected: z.array(
    z.strictObject({
      index: z.number().int().min(0),
      code: z.enum(INGEST_REJECTION_CODES),
      model: z.string().max(50),
      message: z.string(),
    }),
  ),
  duplicates: z.array(
    z.strictObject({
      index: z.number().int().min(0),
      probe: z.enum(["call_id", "legacy_key"]),
      call_id: z.string(),
    }),
  ),
});
export type IngestResponse = z.infer<typeof ingestResponse>;

export const breakerAccepted = z.strictObject({ accepted: z.literal(true) });
export const untrackedAccepted = z.strictObject({ accepted: z.number().int().min(0) });
export const healthResponse = z.strictObject({ status: z.literal("ok") });
export const readinessResponse = z.strictObject({
  status: z.enum(["ok", "unavailable"]),
  postgres: z.enum(["ok", "unavailable"]),
  redis: z.enum(["ok", "unavailable"]),
});

export const detailError = z.strictObject({ detail: z.string() });
export const readOnlyError = z.strictObject({
  detail: z.strictObject({ code: z.literal("read_only_key"), message: z.string() }),
});
export const validationError = z.strictObject({
  detail: z.array(
    z.strictObject({
      loc: z.array(z.union([z.string(), z.number().int()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
});
export const rateLimitError = z.strictObject({ detail: z.string(), retry_after: z.number().int().min(1) });
