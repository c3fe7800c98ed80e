import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Ctx, systemCtx } from "../context";
import { isDomainError } from "../errors";
import { recordBreakerReport } from "../fleet/record-breaker-report";
import { evaluateProviderIncident } from "../incidents/evaluate-provider-incident";
import { seedProject, testDeps } from "../testing/fleet";
import { type FormatReceiver, startFormatReceiver } from "../testing/format-receivers";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverWebhookEvent } from "./deliver-webhook-event";
import { replayWebhookMessage } from "./replay-webhook-message";
import { updateWebhookEndpoint } from "./update-webhook-endpoint";

// Receivers are on loopback, which the address guard refuses unless private URLs are allowed.
const deps = testDeps({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", BREAKER_STALE_SECONDS: "600" });
const sys: Ctx = systemCtx(deps);
const ROUTING_KEY = "R0123456789abcdef0123456789ABCDE";
let slack: FormatReceiver;
let pd: FormatReceiver;

beforeAll(async () => {
  slack = await startFormatReceiver("slack");
  pd = await startFormatReceiver("pagerduty");
});
afterAll(async () => {
  await slack.close();
  await pd.close();
  await deps.db.$disconnect();
});

/** Delivers every undelivered event of the project, oldest first, until nothing is pending. */
async function drain(projectId: string) {
  for (let round = 0; round < 5; round++) {
    const pending = await deps.db.webhookOutbox.findMany({
      where: { completedAt: null, event: { projectId } },
      orderBy: [{ createdAt: "asc" }, { eventId: "asc" }],
    });
    if (pending.length === 0) return;
    for (const o of pending) await deliverWebhookEvent(deps, { eventId: o.eventId });
  }
}

async function fleet(projectId: string, state: "open" | "closed", n: number, t: number) {
  for (let start = 0; start < n; start += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, n - start) }, (_, k) =>
        recordBreakerReport(deps, {
          projectId,
          provider: "openai",
          sdkInstanceId: `inst-${start + k}`,
          state,
          failureCount: state === "open" ? 5 : 0,
          successCount: 0,
          reportedAt: new Date(t + start + k),
        }),
      ),
    );
  }
}

describe("endpoint formats", () => {
  it("Slack and PagerDuty receive exactly one trigger and one resolve per incident, with the same dedup key", async () => {
    const { org, project } = await seedProject(deps, "team");
    await deps.db.project.update({ where: { id: project.id }, data: { incidentQuietSecs: 1 } });
    const standard = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: "http://127.0.0.1:9/std",
    });
    const slackEp = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: slack.url,
      format: "slack",
    });
    const pdEp = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: pd.url,
      format: "pagerduty",
      routingKey: ROUTING_KEY,
    });
    expect(pdEp.endpoint).toMatchObject({ format: "pagerduty", routingKeyHint: "…BCDE" });
    expect(standard.endpoint.format).toBe("standard");

    const t0 = Date.now() - 10_000;
    for (let k = 0; k < 40; k++) await fleet(project.id, "closed", 0, t0 + k); // warm-up: instances appear
    await fleet(project.id, "open", 40, t0 + 2_000);
    await drain(project.id);
    await fleet(project.id, "closed", 40, t0 + 4_000);
    // The quiet period passes on the real clock: events and their deliveries are stamped with the
    // evaluation's time, and a delivery stamped in the future is not due yet.
    await new Promise((r) => setTimeout(r, 1_100));
    await evaluateProviderIncident(deps, { projectId: project.id, provider: "openai" });
    await drain(project.id);

    const incident = await deps.db.providerIncident.findFirstOrThrow({ where: { projectId: project.id } });
    expect(incident.status).toBe("resolved");
    const mineSlack = slack.accepted.filter((r) => JSON.stringify(r.body).includes(incident.id));
    const minePd = pd.accepted.filter((r) => (r.body as { dedup_key?: string }).dedup_key === incident.id);
    expect(slack.refused).toEqual([]);
    expect(pd.refused).toEqual([]);

    // PagerDuty: one trigger, one resolve, dedup_key = the incident id; nothing per instance.
    expect(minePd.map((r) => (r.body as { event_action: string }).event_action)).toEqual([
      "trigger",
      "resolve",
    ]);
    expect(
      pd.accepted.filter((r) => JSON.stringify(r.body).includes(project.id) || r.body === null),
    ).toHaveLength(1);
    const trigger = minePd[0]!.body as Record<string, unknown> & { payload: Record<string, unknown> };
    expect(trigger).toMatchObject({
      routing_key: ROUTING_KEY,
      payload: { source: `${project.name}/openai`, component: "openai" },
      links: [
        { href: `http://localhost:3000/fleet/${project.id}/openai` },
        { href: "http://localhost:3000/fleet/incidents" },
      ],
    });
    expect(["warning", "error", "critical"]).toContain(trigger.payload.severity);

    // Slack: one opened, the crossings, one resolved — readable text and blocks with the facts.
    const texts = mineSlack.map((r) => (r.body as { text: string }).text);
    expect(texts.filter((t) => t.startsWith("Provider incident:")).length).toBeGreaterThanOrEqual(1);
    expect(texts.filter((t) => t.startsWith("Resolved:"))).toHaveLength(1);
    const first = JSON.stringify(mineSlack[0]!.body);
    for (const needle of [
      "*Provider*\\nopenai",
      `*Project*\\n${project.name}`,
      "*Affected instances*",
      "*Since*",
    ])
      expect(first).toContain(needle);
    expect(first).toContain(`/fleet/${project.id}/openai`);

    // The per-instance stream still went to the standard endpoint (one delivery per event).
    const std = await deps.db.webhookDelivery.findMany({
      where: { endpointId: standard.endpoint.id, event: { projectId: project.id } },
      include: { event: { select: { type: true } } },
    });
    const count = (t: string) => std.filter((d) => d.event.type === t).length;
    expect(count("circuit_breaker_opened")).toBe(40);
    expect(count("circuit_breaker_closed")).toBe(40);
    expect(count("provider_incident_opened")).toBe(1);
    expect(count("provider_incident_resolved")).toBe(1);
    // Slack and PagerDuty endpoints were never given a per-instance message.
    const other = await deps.db.webhookDelivery.findMany({
      where: { endpointId: { in: [slackEp.endpoint.id, pdEp.endpoint.id] } },
      include: { event: { select: { type: true } } },
    });
    expect(other.every((d) => d.event.type.startsWith("provider_incident_"))).toBe(true);

    // Replay sends the same PagerDuty body again (PagerDuty dedupes it by dedup_key), logged as an attempt.
    const pdDelivery = other.find((d) => d.endpointId === pdEp.endpoint.id)!;
    const before = pd.accepted.length;
    await replayWebhookMessage(sys, {
      organizationId: org.id,
      eventId: pdDelivery.eventId,
      endpointId: pdEp.endpoint.id,
    });
    expect(pd.accepted.length).toBe(before + 1);
    expect((pd.accepted.at(-1)!.body as { dedup_key: string }).dedup_key).toBe(incident.id);
  }, 120_000);

  it("refuses a PagerDuty endpoint without a routing key, and a URL or filter that does not fit the format, naming the field", async () => {
    const { org } = await seedProject(deps, "team");
    const refusal = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDomainError(err)).toBe(true);
      return (err as { details: { fieldErrors: Record<string, string> } }).details.fieldErrors;
    };
    expect(
      await refusal(createWebhookEndpoint(sys, { organizationId: org.id, url: pd.url, format: "pagerduty" })),
    ).toHaveProperty("routingKey");
    expect(
      await refusal(
        createWebhookEndpoint(sys, {
          organizationId: org.id,
          url: "https://example.com/hook",
          format: "pagerduty",
          routingKey: ROUTING_KEY,
        }),
      ),
    ).toHaveProperty("url");
    expect(
      await refusal(
        createWebhookEndpoint(sys, {
          organizationId: org.id,
          url: slack.url,
          format: "slack",
          eventTypes: ["circuit_breaker_opened"],
        }),
      ),
    ).toHaveProperty("eventTypes");
    await expect(
      createWebhookEndpoint(sys, {
        organizationId: org.id,
        url: pd.url,
        format: "pagerduty",
        routingKey: "short",
      }),
    ).rejects.toThrow(/routing key/i);

    // A refused edit changes nothing that was stored.
    const { endpoint } = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: slack.url,
      format: "slack",
    });
    const stored = await deps.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(
      await refusal(
        updateWebhookEndpoint(sys, {
          organizationId: org.id,
          endpointId: endpoint.id,
          url: pd.url,
          format: "pagerduty",
          description: "changed",
        }),
      ),
    ).toHaveProperty("routingKey");
    expect(await deps.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toEqual(stored);
    // With the key the same edit goes through; back to standard forgets the key.
    const pdNow = await updateWebhookEndpoint(sys, {
      organizationId: org.id,
      endpointId: endpoint.id,
      url: pd.url,
      format: "pagerduty",
      routingKey: ROUTING_KEY,
    });
    expect(pdNow).toMatchObject({ format: "pagerduty", routingKeyHint: "…BCDE" });
    const std = await updateWebhookEndpoint(sys, {
      organizationId: org.id,
      endpointId: endpoint.id,
      url: "https://example.com/hook",
      format: "standard",
    });
    expect(std).toMatchObject({ format: "standard", routingKeyHint: null });
  });
});
