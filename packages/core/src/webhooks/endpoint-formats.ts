import type { WebhookEventPayload } from "../events/breaker-events";
import {
  INCIDENT_EVENT_TYPES,
  type IncidentEventPayload,
  isIncidentEventType,
} from "../events/incident-events";
import { incidentSeverity } from "../incidents/incident-rules";

/**
 * How an endpoint wants its messages: `standard` (Standard Webhooks JSON, the default), `slack`
 * (an incoming-webhook message) or `pagerduty` (an Events API v2 event).
 */
export const ENDPOINT_FORMATS = ["standard", "slack", "pagerduty"] as const;
export type EndpointFormat = (typeof ENDPOINT_FORMATS)[number];

/**
 * The event types a Slack or PagerDuty endpoint receives: provider incidents only. The per-instance
 * breaker stream (one message per SDK instance) and budget alerts are machine feeds — a chat channel
 * or a pager would fire once per instance, which is what incidents exist to avoid. PagerDuty takes
 * no provider_incident_updated: its alert is one trigger and one resolve per dedup_key.
 */
export function formatReceives(format: EndpointFormat, type: string): boolean {
  if (format === "standard") return true;
  if (!isIncidentEventType(type)) return false;
  return format === "slack" || type !== "provider_incident_updated";
}

/** The event types an endpoint of `format` can receive (for its filters). */
export function formatEventTypes(format: EndpointFormat): readonly string[] {
  return format === "standard" ? [] : INCIDENT_EVENT_TYPES.filter((t) => formatReceives(format, t));
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
const incidentsUrl = (dashboardUrl: string) => {
  try {
    return `${new URL(dashboardUrl).origin}/fleet/incidents`;
  } catch {
    return dashboardUrl;
  }
};

function incidentLine(e: IncidentEventPayload): string {
  const d = e.data;
  const where = `${d.provider} in ${d.project_name}`;
  switch (e.type) {
    case "provider_incident_opened":
      return `Provider incident: ${where} — ${d.affected_instances} of ${d.live_instances} instances Down (${pct(d.affected_share)})`;
    case "provider_incident_updated":
      return `Provider incident: ${where} now affects ${pct(e.data.crossed_share)} of instances — ${d.affected_instances} of ${d.live_instances} Down`;
    case "provider_incident_resolved":
      return `Resolved: ${where} — no instance Down for the quiet period; peak ${e.data.peak_affected_instances} instances (${pct(e.data.peak_affected_share)}), ${e.data.calls_saved} calls saved by fallback`;
  }
}

/** A Slack incoming-webhook message: fallback `text` plus Block Kit blocks. */
export function slackMessage(payload: WebhookEventPayload): Record<string, unknown> {
  if (!isIncidentEventType(payload.type)) {
    // Only test sends reach here (real ones are filtered out): a plain line, no blocks.
    return { text: `Breakwater test message: ${payload.type}` };
  }
  const e = payload as IncidentEventPayload;
  const d = e.data;
  const text = incidentLine(e);
  const emoji = e.type === "provider_incident_resolved" ? ":white_check_mark:" : ":rotating_light:";
  const fields = [
    { type: "mrkdwn", text: `*Provider*\n${d.provider}` },
    { type: "mrkdwn", text: `*Project*\n${d.project_name}` },
    {
      type: "mrkdwn",
      text: `*Affected instances*\n${d.affected_instances} of ${d.live_instances} (${pct(d.affected_share)})`,
    },
    {
      type: "mrkdwn",
      text: `*Since*\n<!date^${Math.floor(Date.parse(d.opened_at) / 1000)}^{date_short_pretty} {time}|${d.opened_at}>`,
    },
  ];
  if (e.type === "provider_incident_resolved") {
    fields.push(
      { type: "mrkdwn", text: `*Duration*\n${Math.round(e.data.duration_seconds)} s` },
      { type: "mrkdwn", text: `*Calls saved*\n${e.data.calls_saved}` },
    );
  }
  const title =
    e.type === "provider_incident_opened"
      ? `${d.provider} incident opened`
      : e.type === "provider_incident_updated"
        ? `${d.provider} incident: ${pct(e.data.crossed_share)} of instances Down`
        : `${d.provider} incident resolved`;
  return {
    text,
    blocks: [
      { type: "header", text: { type: "plain_text", text: `${title}`.slice(0, 150), emoji: true } },
      { type: "section", text: { type: "mrkdwn", text: `${emoji} ${text}`.slice(0, 3000) }, fields },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: "Open provider page" },
            url: d.dashboard_url,
          },
        ],
      },
      { type: "context", elements: [{ type: "mrkdwn", text: `Incident ${d.incident_id}` }] },
    ],
  };
}

/** A PagerDuty Events API v2 event: trigger on open, resolve on resolve, dedup_key = incident id. */
export function pagerDutyEvent(payload: WebhookEventPayload, routingKey: string): Record<string, unknown> {
  if (!isIncidentEventType(payload.type)) {
    // Test sends of other types: a low-severity trigger that names itself as a test.
    return {
      routing_key: routingKey,
      event_action: "trigger",
      dedup_key: payload.data.event_id,
      payload: {
        summary: `Breakwater test message: ${payload.type}`,
        source: "breakwater",
        severity: "info",
        timestamp: payload.timestamp,
      },
    };
  }
  const e = payload as IncidentEventPayload;
  const d = e.data;
  if (e.type === "provider_incident_resolved") {
    return { routing_key: routingKey, event_action: "resolve", dedup_key: d.incident_id };
  }
  return {
    routing_key: routingKey,
    event_action: "trigger",
    dedup_key: d.incident_id,
    payload: {
      summary: incidentLine(e).slice(0, 1024),
      source: `${d.project_name}/${d.provider}`,
      severity: incidentSeverity(d.affected_share),
      timestamp: d.opened_at,
      component: d.provider,
      group: d.project_name,
      class: "provider_incident",
      custom_details: {
        project_id: d.project_id,
        affected_instances: d.affected_instances,
        live_instances: d.live_instances,
        affected_share: d.affected_share,
      },
    },
    links: [
      { href: d.dashboard_url, text: "Provider page in Breakwater" },
      { href: incidentsUrl(d.dashboard_url), text: "Incidents in Breakwater" },
    ],
    client: "Breakwater",
    client_url: d.dashboard_url,
  };
}
