import { BREAKER_REPORT_MAX_FUTURE_MS } from "@breakwater/core";
import { z } from "zod";
import {
  AGENT_RUN_NAME_MAX,
  agentRunId,
  CALL_STATUSES,
  CANONICAL_UUID_RE,
  CIRCUIT_STATES,
  callId,
  DENY_SOURCES,
  FAILOVER_ERROR_CLASS_MAX,
  FAILOVER_ERROR_CLASS_RE,
  FAILOVER_REASONS,
  FALLBACK_MAX,
  instant,
  mediaUsage,
  modality,
  model,
  PROVIDER_REGION_MAX,
  providerName,
  SDK_INSTANCE_ID_MAX,
  SERVICE_TIER_MAX,
  SERVICE_TIERS,
  TOKEN_MAX,
  tags,
  tokenCount,
  tokenDetails,
  VELOCITY_FLAGS,
} from "./common";

const versionOne = z.literal("1").nullish();
const int32 = z.number().int().min(0).max(2_147_483_647);

/** POST /api/v1/budgets/check (spec §1). */
export const checkRequest = z
  .strictObject({
    estimated_input_tokens: tokenCount,
    // The budget engine needs a model id to price; an empty one is invalid input, not an unknown model.
    model: model.min(1),
    provider: providerName,
    modality: modality.default("text"),
    estimated_media: mediaUsage.nullish(),
    fallback_providers: z
      .array(providerName)
      .max(FALLBACK_MAX)
      .default(() => []),
    fallback_models: z
      .array(model)
      .max(FALLBACK_MAX)
      .default(() => []),
    agent_run_id: agentRunId.nullish(),
    tags: tags.nullish(),
    failover_directive_version: versionOne,
    run_directive_version: versionOne,
    price_hints_version: versionOne,
    // Fail-open tallies can grow for as long as Breakwater was unreachable: bounded generously.
    uncounted_calls: z.number().int().min(0).max(1_000_000_000).nullish(),
    uncounted_tokens: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.fallback_providers.length !== v.fallback_models.length) {
      ctx.addIssue({
        code: "custom",
        path: ["fallback_models"],
        message: "fallback_providers and fallback_models must have the same length",
        params: { pydanticType: "value_error" },
      });
    }
  });
export type CheckRequest = z.output<typeof checkRequest>;

/** POST /api/v1/budgets/confirm (spec §2). */
export const confirmRequest = z
  .strictObject({
    reservation_id: z.string().min(1).max(128).nullish(),
    lease_id: z.string().min(1).max(64).nullish(),
    model,
    provider: providerName,
    modality: modality.default("text"),
    is_provider_fallback: z.boolean().default(false),
    call_id: callId,
    token_details: tokenDetails,
    media_usage: mediaUsage.nullish(),
    provider_region: z.string().max(PROVIDER_REGION_MAX).nullish(),
    service_tier: z.enum(SERVICE_TIERS).nullish(),
  })
  .superRefine((v, ctx) => {
    if ((v.reservation_id != null) === (v.lease_id != null)) {
      ctx.addIssue({
        code: "custom",
        path: ["reservation_id"],
        message: "exactly one of reservation_id or lease_id must be set",
        params: { pydanticType: "value_error" },
      });
    }
  });
export type ConfirmRequest = z.output<typeof confirmRequest>;

/**
 * One metadata event (spec §3), structurally. Fields whose problems have a per-event rejection code
 * (model plausibility, modality, service tier, tags) are only shape-checked here; the ingest use
 * case sorts those events into the `rejected` lane so their siblings still land.
 */
export const metadataEvent = z
  .strictObject({
    model,
    provider: providerName,
    modality: z.string().max(64).default("text"),
    input_tokens: tokenCount,
    output_tokens: tokenCount,
    token_details: tokenDetails.nullish(),
    media_usage: mediaUsage.nullish(),
    latency_ms: z.number().min(0),
    status: z.enum(CALL_STATUSES),
    is_model_fallback: z.boolean(),
    is_provider_fallback: z.boolean().default(false),
    requested_provider: providerName.nullish(),
    requested_model: model.nullish(),
    failover_reason: z.enum(FAILOVER_REASONS).nullish(),
    failover_error_class: z
      .string()
      .max(FAILOVER_ERROR_CLASS_MAX)
      .regex(FAILOVER_ERROR_CLASS_RE, "must be an error class name")
      .nullish(),
    attempt_index: z.number().int().min(0).max(10_000).default(0),
    call_id: callId,
    possibly_succeeded: z.boolean().nullish(),
    service_tier: z.string().max(SERVICE_TIER_MAX).nullish(),
    sdk_instance_id: z.string().min(1).max(256),
    timestamp: instant,
    agent_run_id: agentRunId.nullish(),
    parent_agent_run_id: agentRunId.nullish(),
    agent_run_name: z.string().max(AGENT_RUN_NAME_MAX).nullish(),
    provider_region: z.string().max(PROVIDER_REGION_MAX).nullish(),
    tags: z.unknown().optional(),
    lease_id: z.string().max(64).nullish(),
    deny_source: z.enum(DENY_SOURCES).nullish(),
    deny_reason: z.string().max(64).nullish(),
    denied_by_period: z.string().max(32).nullish(),
    estimated_output_bound: tokenCount.nullish(),
    velocity_flags: z.array(z.enum(VELOCITY_FLAGS)).max(8).nullish(),
    receipt_aggregate_count: z.number().int().min(1).max(TOKEN_MAX).nullish(),
    receipt_pricing_input_tokens: tokenCount.nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.receipt_pricing_input_tokens != null && v.receipt_aggregate_count == null) {
      ctx.addIssue({
        code: "custom",
        path: ["receipt_pricing_input_tokens"],
        message: "receipt_pricing_input_tokens requires receipt_aggregate_count",
        params: { pydanticType: "value_error" },
      });
    }
  });
export type MetadataEventInput = z.output<typeof metadataEvent>;

/** POST /api/v1/projects/{project_id}/providers/breaker-reports (spec §4). */
export const breakerReport = z
  .strictObject({
    provider: providerName,
    state: z.enum(CIRCUIT_STATES),
    failure_count: int32,
    success_count: int32,
    reported_at: instant,
    sdk_instance_id: z.string().min(1).max(SDK_INSTANCE_ID_MAX),
  })
  .superRefine((v, ctx) => {
    // The newest report wins: one dated ahead would freeze the instance's snapshot until then.
    if (v.reported_at.date.getTime() > Date.now() + BREAKER_REPORT_MAX_FUTURE_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["reported_at"],
        message: "reported_at must not be more than 5 minutes in the future",
        params: { pydanticType: "value_error" },
      });
    }
  });
export type BreakerReportInput = z.output<typeof breakerReport>;

export const CLIENT_SHAPES = [
  "openai_sdk",
  "native_together",
  "anthropic_sdk",
  "google_generativeai",
  "google_genai",
  "bedrock_boto3",
  "bedrock_aioboto3",
] as const;
export const CAPABILITY_SCOPES = [
  "operation",
  "client",
  "resource",
  "raw_response",
  "arbitrary_endpoint",
] as const;

/** One untracked-surface report (spec §6). */
export const untrackedSurfaceReport = z
  .strictObject({
    provider: providerName,
    client_shape: z.enum(CLIENT_SHAPES),
    mode: z.enum(["sync", "async"]),
    surface: z
      .string()
      .max(128)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,7}$/, "must be a dotted identifier"),
    rule_kind: z.enum(["unmetered_spend", "unknown"]),
    capability_scope: z.enum(CAPABILITY_SCOPES).nullish(),
    posture: z.enum(["warn", "allow"]),
    occurrences: z.number().int().min(1).max(1_000_000_000),
    first_seen_at: instant,
    last_seen_at: instant,
    sdk_instance_id: z.string().min(1).max(SDK_INSTANCE_ID_MAX),
    report_id: z.string().length(36).regex(CANONICAL_UUID_RE, "must be a canonical lowercase UUID"),
  })
  .superRefine((v, ctx) => {
    if (v.last_seen_at.micros < v.first_seen_at.micros) {
      ctx.addIssue({
        code: "custom",
        path: ["last_seen_at"],
        message: "last_seen_at must be greater than or equal to first_seen_at",
        params: { pydanticType: "value_error" },
      });
    }
  });
export type UntrackedSurfaceReportInput = z.output<typeof untrackedSurfaceReport>;

export const INGEST_MAX_EVENTS = 1000;
export const UNTRACKED_MAX_REPORTS = 100;
