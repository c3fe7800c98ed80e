import { describe, expect, it } from "vitest";
import {
  BREAKER_EVENT_SAMPLES,
  EVENT_CATALOGUE,
  parseBreakerEvent,
  parseWebhookEvent,
} from "./breaker-events";

describe("breaker event catalogue", () => {
  it("has a schema and a sample for each type, and each sample validates", () => {
    expect(EVENT_CATALOGUE.map((e) => e.type)).toEqual([
      "circuit_breaker_opened",
      "circuit_breaker_closed",
      "budget_threshold_crossed",
      "provider_incident_opened",
      "provider_incident_updated",
      "provider_incident_resolved",
    ]);
    for (const e of EVENT_CATALOGUE) {
      expect(parseWebhookEvent(e.sample)).toEqual(e.sample);
      expect(e.schema.$schema).toContain("2020-12");
      expect(e.schema.required).toEqual(["type", "timestamp", "data"]);
    }
  });

  it("publishes exactly the product's payload keys", () => {
    const keys = (t: string) => {
      const props = EVENT_CATALOGUE.find((e) => e.type === t)?.schema.properties as
        | Record<string, { properties: object }>
        | undefined;
      return Object.keys(props?.data?.properties ?? {}).sort();
    };
    const common = [
      "dashboard_url",
      "episode_id",
      "event_id",
      "failure_count",
      "opened_at",
      "previous_state",
      "project_id",
      "project_name",
      "provider",
      "reported_at",
      "sdk_instance_id",
      "state",
      "success_count",
    ];
    expect(keys("circuit_breaker_opened")).toEqual(common.sort());
    expect(keys("circuit_breaker_closed")).toEqual(
      [...common, "closed_at", "duration_seconds", "resolution"].sort(),
    );
  });

  it("rejects a closed event without its resolution", () => {
    const { resolution: _, ...data } = BREAKER_EVENT_SAMPLES.circuit_breaker_closed.data;
    expect(() => parseBreakerEvent({ ...BREAKER_EVENT_SAMPLES.circuit_breaker_closed, data })).toThrow();
  });

  it("publishes the budget_threshold_crossed payload keys the product names", () => {
    const entry = EVENT_CATALOGUE.find((e) => e.type === "budget_threshold_crossed");
    const props = entry?.schema.properties as Record<string, { properties: object }> | undefined;
    expect(Object.keys(props?.data?.properties ?? {}).sort()).toEqual(
      [
        "dashboard_url",
        "event_id",
        "limit_usd",
        "mode",
        "period",
        "project_id",
        "project_name",
        "spent_usd",
        "threshold_percent",
        "window_end",
        "window_start",
      ].sort(),
    );
    // Key order as documented, whatever order jsonb gave back.
    const shuffled = JSON.parse(
      JSON.stringify({
        data: entry!.sample.data,
        timestamp: entry!.sample.timestamp,
        type: entry!.sample.type,
      }),
    );
    expect(Object.keys(parseWebhookEvent(shuffled))).toEqual(["type", "timestamp", "data"]);
  });
});
