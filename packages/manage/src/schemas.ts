import { z } from "zod";

/**
 * The shapes the management API answers with, as zod schemas: the OpenAPI document's response
 * schemas are generated from them, and the integration suites parse every answer with them, so a
 * handler that drifts from its documented shape fails a test. Request bodies are core's own input
 * schemas (the ones the dashboard's procedures validate with), not copies.
 */
const isoTime = z.iso.datetime({ offset: true });
const usd = z.number().meta({ description: "US dollars" });

export const projectResource = z
  .object({
    id: z.string().meta({ examples: ["proj_0193b1a2c3d4e5f60718293a"] }),
    organizationId: z.string(),
    name: z.string(),
    mode: z.enum(["alert_only", "hard_deny"]),
    limits: z.object({ daily: usd.nullable(), weekly: usd.nullable(), monthly: usd.nullable() }),
    createdAt: isoTime,
  })
  .strict();

export const budgetResource = z
  .object({
    projectId: z.string(),
    mode: z.enum(["alert_only", "hard_deny"]),
    limits: z.object({ daily: usd.nullable(), weekly: usd.nullable(), monthly: usd.nullable() }),
    thresholds: z.array(z.number().int()).meta({ description: "Alert thresholds, whole percent, ascending" }),
    runSpendCapUsd: usd.nullable().meta({ description: "Spend cap per agent run; null = none" }),
  })
  .strict();

export const apiKeyResource = z
  .object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: "The key's first characters, to tell keys apart" }),
    readOnly: z.boolean(),
    createdAt: isoTime,
    lastUsedAt: isoTime.nullable(),
    expiresAt: isoTime.nullable(),
    revokedAt: isoTime.nullable(),
  })
  .strict();

export const createdApiKeyResource = apiKeyResource
  .extend({
    key: z
      .string()
      .regex(/^sk_proj_[0-9a-f]{64}$/)
      .meta({ description: "The SDK key itself: shown in this answer only, never again" }),
  })
  .strict();

/** A page of a list. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), has_more: z.boolean() }).strict();
}

export const problemSchema = z.object({
  type: z.string().meta({ description: "Stable URI of the kind of error (urn:breakwater:problem:…)" }),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  errors: z
    .array(
      z.union([
        z.object({ pointer: z.string(), detail: z.string() }),
        z.object({ parameter: z.string(), detail: z.string() }),
      ]),
    )
    .optional()
    .meta({ description: "Field errors of a 422: body fields by JSON Pointer, query parameters by name" }),
});

export const planResource = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    version: z
      .number()
      .int()
      .meta({ description: "Latest version: what new and unpinned subscriptions get" }),
    priceCents: z.number().int(),
    entitlements: z.record(z.string(), z.union([z.boolean(), z.number(), z.null()])),
    subscriptionCount: z.number().int(),
    archived: z.boolean(),
  })
  .strict();

export const subscriptionResource = z
  .object({
    organizationId: z.string(),
    planSlug: z.string(),
    planName: z.string(),
    pinnedVersion: z.number().int().nullable(),
    effectiveVersion: z.number().int(),
  })
  .strict();

export const tagRuleResource = z
  .object({
    id: z.string(),
    name: z.string(),
    selector: z
      .record(z.string(), z.string())
      .meta({ description: "Tag name → value; every pair must match" }),
    period: z.enum(["daily", "weekly", "monthly"]),
    limitUsd: usd,
    enabled: z.boolean(),
    updatedAt: isoTime,
  })
  .strict();

export const auditEventResource = z
  .object({
    id: z.string(),
    createdAt: isoTime,
    actor: z
      .object({
        type: z.string().meta({ description: "user, operator, management_key, api_key or system" }),
        id: z.string().nullable(),
        name: z.string().nullable().meta({ description: "A user's name, or a management key's name" }),
        email: z.string().nullable(),
      })
      .strict(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string(),
    before: z.unknown(),
    after: z.unknown(),
  })
  .strict();

const roleEnum = z.enum(["viewer", "member", "admin", "owner"]);

export const memberResource = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: roleEnum,
    joinedAt: isoTime,
  })
  .strict();

export const invitationResource = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roleEnum,
    inviterName: z.string().nullable(),
    createdAt: isoTime,
    expiresAt: isoTime,
    expired: z.boolean().meta({ description: "Pending but past its expiry: the link no longer works" }),
  })
  .strict();

export const webhookEndpointResource = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    projectId: z
      .string()
      .nullable()
      .meta({ description: "Only this project's events; null = every project" }),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()).meta({ description: "Empty = every event type" }),
    providers: z.array(z.string()).meta({ description: "Empty = every provider" }),
    format: z.enum(["standard", "slack", "pagerduty"]),
    routingKeyHint: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: isoTime.nullable(),
    secretPrefix: z.string(),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .strict();

export const webhookEndpointSummaryResource = webhookEndpointResource
  .extend({
    lastAttempt: z
      .object({ at: isoTime, success: z.boolean(), responseStatus: z.number().int().nullable() })
      .strict()
      .nullable(),
    last24h: z
      .object({ succeeded: z.number().int(), failed: z.number().int(), pending: z.number().int() })
      .strict(),
  })
  .strict();

export const createdWebhookEndpointResource = webhookEndpointResource
  .extend({
    secret: z.string().meta({ description: "The whsec_ signing secret (admins can read it again later)" }),
  })
  .strict();

export const webhookTestResource = z
  .object({
    eventId: z.string(),
    deliveryId: z.string(),
    endpointId: z.string(),
    trigger: z.string(),
    success: z.boolean(),
    statusCode: z.number().int().nullable(),
    latencyMs: z.number(),
    error: z.string().nullable(),
    deliveryStatus: z.string(),
  })
  .strict();

const money = z.string().meta({ description: "US dollars as a decimal string" });
const count = z.number().int();

export const usageResource = z
  .object({
    range: z.object({ from: z.string(), to: z.string(), start: isoTime, end: isoTime }).strict(),
    rolledUpTo: isoTime.nullable(),
    totals: z
      .object({
        calls: count,
        errors: count,
        deniedCalls: count,
        fallbackCalls: count,
        savedByFallbackCalls: count,
        unpricedCalls: count,
        unpricedInputTokens: count,
        unpricedOutputTokens: count,
        inputTokens: count,
        outputTokens: count,
        costUsd: money,
        avoidedCostUsd: money,
      })
      .strict(),
    series: z.array(
      z
        .object({
          bucket: z.string(),
          calls: count,
          costUsd: money,
          deniedCalls: count,
          fallbackCalls: count,
          unpricedCalls: count,
        })
        .strict(),
    ),
    byProvider: z.array(
      z
        .object({
          provider: z.string(),
          calls: count,
          errors: count,
          costUsd: money,
          unpricedCalls: count,
          p50LatencyMs: z.number().nullable(),
          p95LatencyMs: z.number().nullable(),
        })
        .strict(),
    ),
    byModel: z.array(
      z
        .object({
          provider: z.string(),
          model: z.string(),
          calls: count,
          inputTokens: count,
          outputTokens: count,
          costUsd: money.nullable(),
          unpricedCalls: count,
        })
        .strict(),
    ),
    byTag: z.array(
      z
        .object({
          key: z.string(),
          value: z.string(),
          calls: count,
          costUsd: money,
          unpricedCalls: count,
          inputTokens: count,
          outputTokens: count,
        })
        .strict(),
    ),
    byRun: z.array(
      z
        .object({
          projectId: z.string(),
          agentRunId: z.string(),
          name: z.string().nullable(),
          calls: count,
          costUsd: money,
          avoidedCostUsd: money,
          stopped: z.boolean(),
        })
        .strict(),
    ),
    failoversByReason: z.array(z.object({ reason: z.string(), calls: count, saved: count }).strict()),
    limits: z.array(
      z
        .object({
          projectId: z.string(),
          projectName: z.string(),
          period: z.enum(["daily", "weekly", "monthly"]),
          limitUsd: money,
          spentUsd: money,
          windowStart: isoTime,
          windowEnd: isoTime,
          percent: z.number(),
        })
        .strict(),
    ),
  })
  .strict();

const providerStatus = z.enum(["Healthy", "Down", "Recovering", "Unknown"]);

export const fleetResource = z
  .object({
    projectId: z.string(),
    generatedAt: isoTime,
    staleAfterSeconds: count.meta({ description: "An instance silent this long is stale, not counted live" }),
    status: providerStatus.meta({ description: "The worst provider's; Unknown when nothing reported" }),
    providers: z
      .array(
        z
          .object({
            provider: z.string(),
            status: providerStatus,
            summary: z.string().meta({ examples: ["2 of 7 instances Down"] }),
            healthy: count,
            down: count,
            recovering: count,
            stale: count,
            openEpisodes: count,
            since: isoTime.nullable().meta({ description: "Since when Down or Recovering" }),
            lastReportAt: isoTime.nullable(),
            unprobed: count.meta({
              description: "Live instances Down past their recovery window while a fallback serves",
            }),
            unprobedNote: z.string().nullable(),
          })
          .strict(),
      )
      .meta({ description: "Every provider the project's instances reported, by name" }),
  })
  .strict();

export const incidentResource = z
  .object({
    id: z.string(),
    projectId: z.string(),
    projectName: z.string(),
    provider: z.string(),
    status: z.enum(["open", "resolved"]),
    openedAt: isoTime,
    resolvedAt: isoTime.nullable(),
    durationSeconds: count.meta({ description: "Until resolvedAt, or until now while open" }),
    affectedCount: count,
    liveCount: count,
    affectedShare: z.number(),
    peakCount: count,
    peakShare: z.number(),
    instancesInvolved: count,
    failovers: count,
    callsSaved: count,
    fallbackModels: z.array(z.string()),
    samples: z
      .array(
        z
          .object({ t: z.number().meta({ description: "Epoch milliseconds" }), affected: count, live: count })
          .strict(),
      )
      .meta({ description: "Affected and live instances over time" }),
  })
  .strict();

export const webhookMessageResource = z
  .object({
    id: z.string().meta({ description: "The event id, also the webhook-id header receivers see" }),
    type: z.string(),
    projectId: z.string(),
    episodeId: z.string().nullable(),
    createdAt: isoTime,
    deliverable: z
      .boolean()
      .meta({ description: "false when the plan did not include the event type's webhooks when it fired" }),
    isTest: z.boolean(),
    payload: z.unknown(),
    status: z.enum([
      "pending",
      "delivered",
      "failed",
      "not_deliverable",
      "no_endpoints",
      "rejected",
      "exhausted",
    ]),
    nextAttemptAt: isoTime.nullable(),
    lastError: z.string().nullable(),
    deliveries: z
      .array(
        z
          .object({
            id: z.string(),
            endpointId: z.string(),
            endpointUrl: z.string(),
            status: z.string(),
            attemptCount: count,
            nextAttemptAt: isoTime.nullable(),
            lastAttemptAt: isoTime.nullable(),
            attempts: z.array(
              z
                .object({
                  id: z.string(),
                  attemptNumber: count,
                  trigger: z.string().meta({ description: "scheduled, replay or test" }),
                  startedAt: isoTime,
                  latencyMs: z.number().nullable(),
                  responseStatus: count.nullable(),
                  success: z.boolean(),
                  error: z.string().nullable(),
                  responseSnippet: z.string().nullable(),
                })
                .strict(),
            ),
          })
          .strict(),
      )
      .meta({ description: "This endpoint's delivery of the message, with every attempt" }),
  })
  .strict();

export const createdInvitationResource = invitationResource
  .extend({
    url: z.string().meta({
      description: "The accept link: in this answer only (only its hash is stored). Send it to the invitee.",
    }),
  })
  .strict();

const featureValue = z.union([z.boolean(), z.number(), z.null()]);

export const planVersionResource = z
  .object({
    id: z.string(),
    planSlug: z.string(),
    planName: z.string(),
    version: count,
    priceCents: count,
    entitlements: z.record(z.string(), featureValue),
    changeNote: z.string().nullable(),
    createdAt: isoTime,
    createdById: z.string().nullable(),
  })
  .strict();

export const overrideResource = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    projectId: z.string().nullable().meta({ description: "Set for a project-level override" }),
    featureKey: z.string(),
    value: featureValue,
    reason: z.string(),
    expiresAt: isoTime.nullable(),
    createdAt: isoTime,
    createdById: z.string().nullable(),
  })
  .strict();

const rate = z.string().meta({ description: "USD per million tokens, a decimal string" });

export const priceCardResource = z
  .object({
    id: z.string(),
    provider: z.string(),
    model: z.string(),
    aliases: z.array(z.string()),
    patterns: z.array(z.string()),
    unit: z.string(),
    inputPerMtok: rate,
    cachedInputPerMtok: rate.nullable(),
    cacheWrite5mPerMtok: rate.nullable(),
    cacheWrite1hPerMtok: rate.nullable(),
    outputPerMtok: rate,
    longContext: z
      .object({
        threshold: count,
        inputPerMtok: rate,
        cachedInputPerMtok: rate.nullable(),
        cacheWrite5mPerMtok: rate.nullable(),
        cacheWrite1hPerMtok: rate.nullable(),
        outputPerMtok: rate,
      })
      .strict()
      .nullable(),
    unitPrices: z.record(z.string(), z.string()),
    regionMultipliers: z.record(z.string(), z.string()),
    tierMultipliers: z.record(z.string(), z.string()),
    source: z.string(),
    sourceDate: z.string(),
    notes: z.string().nullable(),
    createdAt: isoTime,
    updatedAt: isoTime,
    updatedById: z.string().nullable(),
  })
  .strict();
