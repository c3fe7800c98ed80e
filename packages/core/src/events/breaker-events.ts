import { z } from "zod";
import { BUDGET_THRESHOLD_SAMPLE, type BudgetThresholdEvent, budgetThresholdEvent } from "./budget-events";
import {
  INCIDENT_EVENT_SAMPLES,
  INCIDENT_EVENT_TYPES,
  type IncidentEventPayload,
  incidentOpenedEvent,
  incidentResolvedEvent,
  incidentUpdatedEvent,
} from "./incident-events";

/** The breaker event types Breakwater sends. */
export const BREAKER_EVENT_TYPES = ["circuit_breaker_opened", "circuit_breaker_closed"] as const;
export type BreakerEventType = (typeof BREAKER_EVENT_TYPES)[number];

/** Every webhook event type: the breaker pair, budget threshold alerts and provider incidents. */
export const WEBHOOK_EVENT_TYPES = [
  ...BREAKER_EVENT_TYPES,
  "budget_threshold_crossed",
  ...INCIDENT_EVENT_TYPES,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const circuitState = z.enum(["closed", "open", "half_open"]);
const instant = z.iso.datetime({ offset: false }).describe("RFC 3339 UTC timestamp");

const commonData = {
  event_id: z
    .string()
    .regex(/^evt_[0-9a-f]{24}$/)
    .describe("Unique per event; equal to the webhook-id header"),
  episode_id: z
    .string()
    .regex(/^ep_[0-9a-f]{24}$/)
    .describe("The breaker episode this event opens or closes"),
  project_id: z.string().regex(/^proj_[0-9a-f]{24}$/),
  project_name: z.string(),
  provider: z.string().describe("The provider whose breaker changed (openai, anthropic, …)"),
  sdk_instance_id: z.string().describe("The SDK instance that reported the breaker"),
  failure_count: z.number().int().min(0),
  success_count: z.number().int().min(0),
  reported_at: instant.describe("When the SDK instance took the snapshot that fired the event"),
  opened_at: instant.describe("When the episode opened (reported_at of its first open/half_open snapshot)"),
  dashboard_url: z.string().url().describe("The provider page of the project in the Breakwater dashboard"),
};

/** data of circuit_breaker_opened: a breaker went open (or half_open) with no episode open. */
export const breakerOpenedData = z.object({
  ...commonData,
  state: z.enum(["open", "half_open"]).describe("The state that opened the episode"),
  previous_state: circuitState.nullable().describe("The instance's state before; null for its first report"),
});

/** data of circuit_breaker_closed: the episode ended (recovered, or the instance went silent). */
export const breakerClosedData = z.object({
  ...commonData,
  state: circuitState.describe(
    "closed when the breaker recovered; for resolution instance_expired, the last state the instance reported",
  ),
  previous_state: circuitState.nullable(),
  closed_at: instant.describe("When the episode closed"),
  duration_seconds: z.number().min(0).describe("closed_at − opened_at, in seconds"),
  resolution: z
    .enum(["recovered", "instance_expired"])
    .describe(
      "recovered: a closed snapshot arrived; instance_expired: the instance stopped reporting while open",
    ),
});

export const breakerOpenedEvent = z.object({
  type: z.literal("circuit_breaker_opened"),
  timestamp: instant.describe("When Breakwater created the event"),
  data: breakerOpenedData,
});
export const breakerClosedEvent = z.object({
  type: z.literal("circuit_breaker_closed"),
  timestamp: instant.describe("When Breakwater created the event"),
  data: breakerClosedData,
});

export type BreakerOpenedEvent = z.infer<typeof breakerOpenedEvent>;
export type BreakerClosedEvent = z.infer<typeof breakerClosedEvent>;
export type BreakerEventPayload = BreakerOpenedEvent | BreakerClosedEvent;

/** Validates a payload against its type's schema (used before a payload is stored). */
export function parseBreakerEvent(payload: unknown): BreakerEventPayload {
  return z.discriminatedUnion("type", [breakerOpenedEvent, breakerClosedEvent]).parse(payload);
}

export type WebhookEventPayload = BreakerEventPayload | BudgetThresholdEvent | IncidentEventPayload;

// Built once: the sender re-parses every payload it sends, and building the union costs more
// than parsing with it.
const webhookEventSchema = z.discriminatedUnion("type", [
  breakerOpenedEvent,
  breakerClosedEvent,
  budgetThresholdEvent,
  incidentOpenedEvent,
  incidentUpdatedEvent,
  incidentResolvedEvent,
]);

/** Validates any webhook payload against its type's schema (restores the documented key order). */
export function parseWebhookEvent(payload: unknown): WebhookEventPayload {
  return webhookEventSchema.parse(payload);
}

const SAMPLE_BASE = {
  event_id: "evt_019ad6a3b2c4e1f0a9b8c7d6",
  episode_id: "ep_019ad6a3b2c4a1b2c3d4e5f6",
  project_id: "proj_019ad5f0c1d2e3f4a5b6c7d8",
  project_name: "checkout-api",
  provider: "openai",
  sdk_instance_id: "web-7f9c4d-2",
  dashboard_url: "https://breakwater.example.com/fleet/proj_019ad5f0c1d2e3f4a5b6c7d8/openai",
};

/** One realistic payload per event type, for the catalogue page, the docs and "send test event". */
export const BREAKER_EVENT_SAMPLES: { [T in BreakerEventType]: Extract<BreakerEventPayload, { type: T }> } = {
  circuit_breaker_opened: {
    type: "circuit_breaker_opened",
    timestamp: "2026-11-30T14:02:11.482Z",
    data: {
      ...SAMPLE_BASE,
      state: "open",
      previous_state: "closed",
      failure_count: 5,
      success_count: 0,
      reported_at: "2026-11-30T14:02:11.120Z",
      opened_at: "2026-11-30T14:02:11.120Z",
    },
  },
  circuit_breaker_closed: {
    type: "circuit_breaker_closed",
    timestamp: "2026-11-30T14:09:43.017Z",
    data: {
      ...SAMPLE_BASE,
      event_id: "evt_019ad6aa95d1c2b3a4f5e6d7",
      state: "closed",
      previous_state: "half_open",
      failure_count: 0,
      success_count: 3,
      reported_at: "2026-11-30T14:09:42.877Z",
      opened_at: "2026-11-30T14:02:11.120Z",
      closed_at: "2026-11-30T14:09:42.877Z",
      duration_seconds: 451.757,
      resolution: "recovered",
    },
  },
};

function publishedSchema(schema: z.ZodType, title: string, description: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    override: (ctx) => {
      const s = ctx.jsonSchema as Record<string, unknown>;
      // The validating pattern zod emits for timestamps is noise to readers; the format says it.
      if (s.format === "date-time") delete s.pattern;
      // Receivers must ignore fields added later, so the published schema does not forbid them.
      if (s.additionalProperties === false) delete s.additionalProperties;
    },
  }) as Record<string, unknown>;
  return { ...json, title, description };
}

export interface EventTypeInfo {
  type: WebhookEventType;
  description: string;
  /** JSON Schema (draft 2020-12) of the whole payload. */
  schema: Record<string, unknown>;
  sample: WebhookEventPayload;
}

/** One realistic payload per webhook event type. */
export const WEBHOOK_EVENT_SAMPLES: { [T in WebhookEventType]: Extract<WebhookEventPayload, { type: T }> } = {
  ...BREAKER_EVENT_SAMPLES,
  budget_threshold_crossed: BUDGET_THRESHOLD_SAMPLE,
  ...INCIDENT_EVENT_SAMPLES,
};

/** The event catalogue as served to the dashboard, the docs and registered with Svix. */
export const EVENT_CATALOGUE: EventTypeInfo[] = [
  {
    type: "circuit_breaker_opened",
    description:
      "A provider's circuit breaker opened in one SDK instance: that instance stopped sending calls to the provider. Sent once per episode.",
    schema: publishedSchema(breakerOpenedEvent, "circuit_breaker_opened", "A breaker episode opened"),
    sample: BREAKER_EVENT_SAMPLES.circuit_breaker_opened,
  },
  {
    type: "circuit_breaker_closed",
    description:
      "The episode ended: the breaker closed again (resolution recovered) or the instance stopped reporting while open (instance_expired). Exactly one follows every circuit_breaker_opened.",
    schema: publishedSchema(breakerClosedEvent, "circuit_breaker_closed", "A breaker episode closed"),
    sample: BREAKER_EVENT_SAMPLES.circuit_breaker_closed,
  },
  {
    type: "budget_threshold_crossed",
    description:
      "A project's spend in a daily, weekly or monthly window reached one of its alert thresholds (e.g. 80 % of the limit). Sent once per threshold per window, when the organization's plan includes budget webhooks.",
    schema: publishedSchema(
      budgetThresholdEvent,
      "budget_threshold_crossed",
      "A budget threshold was crossed",
    ),
    sample: BUDGET_THRESHOLD_SAMPLE,
  },
  {
    type: "provider_incident_opened",
    description:
      "A provider incident opened: the share of a project's live instances with the provider's breaker Down reached the project's threshold (for its minimum duration). One per outage, however many instances are Down — page on this instead of circuit_breaker_opened.",
    schema: publishedSchema(incidentOpenedEvent, "provider_incident_opened", "A provider incident opened"),
    sample: INCIDENT_EVENT_SAMPLES.provider_incident_opened,
  },
  {
    type: "provider_incident_updated",
    description:
      "An open incident's affected share reached 50 % or 100 % of the live instances. At most one per milestone per incident.",
    schema: publishedSchema(
      incidentUpdatedEvent,
      "provider_incident_updated",
      "A provider incident reached 50 % or 100 % of the instances",
    ),
    sample: INCIDENT_EVENT_SAMPLES.provider_incident_updated,
  },
  {
    type: "provider_incident_resolved",
    description:
      "The incident resolved: no instance has been Down for the project's quiet period (stale instances do not count). Carries the peak, the instances involved, the failovers, the calls saved and the fallback models. Exactly one follows every provider_incident_opened.",
    schema: publishedSchema(
      incidentResolvedEvent,
      "provider_incident_resolved",
      "A provider incident resolved",
    ),
    sample: INCIDENT_EVENT_SAMPLES.provider_incident_resolved,
  },
];

/** The catalogue entry of one event type. */
export function eventTypeInfo(type: string): EventTypeInfo | undefined {
  return EVENT_CATALOGUE.find((e) => e.type === type);
}
