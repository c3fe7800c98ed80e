import { z } from "zod";

/** The provider incident event types: one incident per outage of a provider in a project. */
export const INCIDENT_EVENT_TYPES = [
  "provider_incident_opened",
  "provider_incident_updated",
  "provider_incident_resolved",
] as const;
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

const instant = z.iso.datetime({ offset: false }).describe("RFC 3339 UTC timestamp");

const incidentData = {
  event_id: z
    .string()
    .regex(/^evt_[0-9a-f]{24}$/)
    .describe("Unique per event; equal to the webhook-id header"),
  incident_id: z
    .string()
    .regex(/^inc_[0-9a-f]{24}$/)
    .describe("The incident; the same in its opened, updated and resolved events (PagerDuty dedup_key)"),
  project_id: z.string().regex(/^proj_[0-9a-f]{24}$/),
  project_name: z.string(),
  provider: z.string().describe("The provider that is out (openai, anthropic, …)"),
  opened_at: instant.describe("When the share of Down instances first reached the threshold"),
  affected_instances: z
    .number()
    .int()
    .min(0)
    .describe("Live instances with the provider's breaker Down (open or recovering) now"),
  live_instances: z.number().int().min(0).describe("Live (non-stale) instances reporting the provider now"),
  affected_share: z.number().min(0).max(1).describe("affected_instances / live_instances, 0–1"),
  threshold_instances: z
    .number()
    .int()
    .min(1)
    .describe("Down instances needed to open an incident with this many live instances"),
  dashboard_url: z.string().url().describe("The provider page of the project in the Breakwater dashboard"),
};

export const incidentOpenedData = z.object(incidentData);
export const incidentUpdatedData = z.object({
  ...incidentData,
  crossed_share: z
    .union([z.literal(0.5), z.literal(1)])
    .describe("The milestone the affected share just reached: 0.5 (half the instances) or 1 (all)"),
});
export const incidentResolvedData = z.object({
  ...incidentData,
  resolved_at: instant.describe("When the incident resolved: the quiet period after the last Down instance"),
  duration_seconds: z.number().min(0).describe("resolved_at − opened_at, in seconds"),
  peak_affected_instances: z.number().int().min(0),
  peak_affected_share: z.number().min(0).max(1),
  instances_involved: z.array(z.string()).describe("Every instance that was Down during the incident"),
  failovers: z.number().int().min(0).describe("Calls that failed over away from the provider during it"),
  calls_saved: z.number().int().min(0).describe("Failovers that succeeded on another provider"),
  fallback_models: z.array(z.string()).describe("The models that served those calls"),
});

export const incidentOpenedEvent = z.object({
  type: z.literal("provider_incident_opened"),
  timestamp: instant.describe("When Breakwater created the event"),
  data: incidentOpenedData,
});
export const incidentUpdatedEvent = z.object({
  type: z.literal("provider_incident_updated"),
  timestamp: instant.describe("When Breakwater created the event"),
  data: incidentUpdatedData,
});
export const incidentResolvedEvent = z.object({
  type: z.literal("provider_incident_resolved"),
  timestamp: instant.describe("When Breakwater created the event"),
  data: incidentResolvedData,
});
export type IncidentOpenedEvent = z.infer<typeof incidentOpenedEvent>;
export type IncidentUpdatedEvent = z.infer<typeof incidentUpdatedEvent>;
export type IncidentResolvedEvent = z.infer<typeof incidentResolvedEvent>;
export type IncidentEventPayload = IncidentOpenedEvent | IncidentUpdatedEvent | IncidentResolvedEvent;

export function isIncidentEventType(type: string): type is IncidentEventType {
  return (INCIDENT_EVENT_TYPES as readonly string[]).includes(type);
}

const SAMPLE_BASE = {
  incident_id: "inc_019ad6a3b2c4d5e6f7a8b9c0",
  project_id: "proj_019ad5f0c1d2e3f4a5b6c7d8",
  project_name: "checkout-api",
  provider: "openai",
  opened_at: "2026-11-30T14:02:11.482Z",
  threshold_instances: 10,
  dashboard_url: "https://breakwater.example.com/fleet/proj_019ad5f0c1d2e3f4a5b6c7d8/openai",
};

export const INCIDENT_EVENT_SAMPLES: {
  [T in IncidentEventType]: Extract<IncidentEventPayload, { type: T }>;
} = {
  provider_incident_opened: {
    type: "provider_incident_opened",
    timestamp: "2026-11-30T14:02:11.503Z",
    data: {
      ...SAMPLE_BASE,
      event_id: "evt_019ad6a3b2d0a1b2c3d4e5f6",
      affected_instances: 10,
      live_instances: 40,
      affected_share: 0.25,
    },
  },
  provider_incident_updated: {
    type: "provider_incident_updated",
    timestamp: "2026-11-30T14:03:40.118Z",
    data: {
      ...SAMPLE_BASE,
      event_id: "evt_019ad6a50f6ea1b2c3d4e5f6",
      affected_instances: 20,
      live_instances: 40,
      affected_share: 0.5,
      crossed_share: 0.5,
    },
  },
  provider_incident_resolved: {
    type: "provider_incident_resolved",
    timestamp: "2026-11-30T14:21:05.771Z",
    data: {
      ...SAMPLE_BASE,
      event_id: "evt_019ad6b4e2a3a1b2c3d4e5f6",
      affected_instances: 0,
      live_instances: 40,
      affected_share: 0,
      resolved_at: "2026-11-30T14:21:05.760Z",
      duration_seconds: 1134.278,
      peak_affected_instances: 40,
      peak_affected_share: 1,
      instances_involved: ["web-7f9c4d-1", "web-7f9c4d-2", "worker-0"],
      failovers: 1873,
      calls_saved: 1861,
      fallback_models: ["claude-sonnet-4-5"],
    },
  },
};
