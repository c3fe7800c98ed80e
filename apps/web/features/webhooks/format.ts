import type { AppRouter } from "@breakwater/api";
import type { inferRouterOutputs } from "@trpc/server";

type Out = inferRouterOutputs<AppRouter>["webhooks"];
export type EndpointSummary = Out["listEndpoints"][number];
export type Endpoint = Out["getEndpoint"];
export type WebhookMessage = Out["getMessage"];
export type MessageLogItem = Out["listMessages"]["items"][number];
export type WebhookSettings = Out["settings"];
export type EventTypeInfo = Out["eventTypes"][number];
export type Attempt = WebhookMessage["deliveries"][number]["attempts"][number];

export const EVENT_TYPES = [
  "circuit_breaker_opened",
  "circuit_breaker_closed",
  "budget_threshold_crossed",
  "provider_incident_opened",
  "provider_incident_updated",
  "provider_incident_resolved",
] as const;

/** The endpoint formats and the event types each can receive (Slack and PagerDuty: incidents only). */
export const ENDPOINT_FORMATS = {
  standard: { label: "Standard webhook", types: EVENT_TYPES as readonly string[] },
  slack: {
    label: "Slack",
    types: ["provider_incident_opened", "provider_incident_updated", "provider_incident_resolved"],
  },
  pagerduty: { label: "PagerDuty", types: ["provider_incident_opened", "provider_incident_resolved"] },
} as const satisfies Record<string, { label: string; types: readonly string[] }>;
export type EndpointFormat = keyof typeof ENDPOINT_FORMATS;

/** The retry schedule after the first attempt, as the delivery code runs it (sums to ≈ 28 h). */
export const RETRY_SCHEDULE_TEXT =
  "5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later (about 28 hours in all)";

const dateTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
export const formatDateTime = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;

type Tone = "neutral" | "brand" | "green" | "amber" | "red";

export const MESSAGE_STATUS: Record<WebhookMessage["status"], { label: string; tone: Tone }> = {
  pending: { label: "Retrying", tone: "amber" },
  delivered: { label: "Delivered", tone: "green" },
  failed: { label: "Failed", tone: "red" },
  rejected: { label: "Rejected", tone: "red" },
  exhausted: { label: "Gave up", tone: "red" },
  not_deliverable: { label: "Not on plan", tone: "neutral" },
  no_endpoints: { label: "No endpoints", tone: "neutral" },
};

export const STATUS_FILTERS = [
  { value: "delivered", label: "Delivered" },
  { value: "pending", label: "Retrying" },
  { value: "failed", label: "Failed" },
  { value: "no_endpoints", label: "No endpoints" },
  { value: "not_deliverable", label: "Not on plan" },
] as const;

export const DELIVERY_STATUS: Record<string, { label: string; tone: Tone }> = {
  succeeded: { label: "Succeeded", tone: "green" },
  pending: { label: "Retrying", tone: "amber" },
  failed: { label: "Failed", tone: "red" },
  exhausted: { label: "Gave up", tone: "red" },
};

/** An endpoint's health in one word, from its flags and last attempt. */
export function endpointHealth(e: {
  enabled: boolean;
  failingSince: string | null;
  lastAttempt?: { success: boolean } | null;
}): { label: string; tone: Tone } {
  if (!e.enabled) return { label: "Disabled", tone: "neutral" };
  if (e.failingSince) return { label: "Failing", tone: "red" };
  if (!e.lastAttempt) return { label: "No deliveries yet", tone: "neutral" };
  return e.lastAttempt.success ? { label: "Healthy", tone: "green" } : { label: "Failing", tone: "red" };
}

export function describeFilters(e: { eventTypes: string[]; providers: string[] }): string {
  const types = e.eventTypes.length ? e.eventTypes.join(", ") : "all event types";
  const providers = e.providers.length ? e.providers.join(", ") : "all providers";
  return `${types} · ${providers}`;
}
