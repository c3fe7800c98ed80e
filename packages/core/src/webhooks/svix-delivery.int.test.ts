import { type FakeSvix, freePort, startFakeSvix } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordBreakerReport } from "../fleet/record-breaker-report";
import { seedProject, testDeps } from "../testing/fleet";
import { deliverWebhookEvent } from "./deliver-webhook-event";
import { registerSvixEventTypes } from "./svix-delivery";

let svix: FakeSvix;
let deps: ReturnType<typeof testDeps>;

beforeAll(async () => {
  svix = await startFakeSvix(0);
  deps = testDeps({ SVIX_API_KEY: "testsk_fake", SVIX_SERVER_URL: svix.url });
});
afterAll(async () => {
  await svix.close();
  await deps.db.$disconnect();
});

let clock = Date.parse("2026-11-30T09:00:00Z");
async function newEvent() {
  const { project } = await seedProject(deps, "team");
  clock += 1000;
  const r = await recordBreakerReport(deps, {
    projectId: project.id,
    provider: "anthropic",
    sdkInstanceId: "i-1",
    state: "open",
    failureCount: 5,
    successCount: 0,
    reportedAt: new Date(clock),
  });
  return { project, eventId: r.eventIds[0]! };
}
const msgCalls = (projectId: string) => svix.calls.filter((c) => c.path === `/api/v1/app/${projectId}/msg`);

describe("Svix backend", () => {
  it("registers the event types with their schemas, and refreshes them when they exist", async () => {
    await registerSvixEventTypes(deps);
    await registerSvixEventTypes(deps);
    const creates = svix.calls.filter((c) => c.method === "POST" && c.path === "/api/v1/event-type");
    const types = [
      "circuit_breaker_opened",
      "circuit_breaker_closed",
      "budget_threshold_crossed",
      "provider_incident_opened",
      "provider_incident_updated",
      "provider_incident_resolved",
    ];
    expect(creates.map((c) => (c.body as { name: string }).name)).toEqual([...types, ...types]);
    expect(
      (creates[0]?.body as { schemas?: Record<string, { title: string }> } | undefined)?.schemas?.["1"]
        ?.title,
    ).toBe("circuit_breaker_opened");
    const updates = svix.calls.filter((c) => c.method === "PUT");
    expect(updates.map((c) => c.path)).toEqual(types.map((t) => `/api/v1/event-type/${t}`));
  });

  it("creates the project's application (uid = project id) and the message with eventId, idempotency key and channel", async () => {
    const { project, eventId } = await newEvent();
    const r = await deliverWebhookEvent(deps, { eventId });
    expect(r).toMatchObject({ status: "done", outcome: "delivered", backend: "svix" });
    const app = svix.calls.find(
      (c) => c.path === "/api/v1/app" && (c.body as { uid: string }).uid === project.id,
    );
    expect(app?.query).toEqual({ get_if_exists: "true" });
    expect(app?.body).toMatchObject({ uid: project.id, name: project.name });
    const [msg, ...more] = msgCalls(project.id);
    expect(more).toEqual([]);
    expect(msg?.headers["idempotency-key"]).toBe(eventId);
    expect(msg?.headers.authorization).toBe("Bearer testsk_fake");
    expect(msg?.body).toMatchObject({
      eventType: "circuit_breaker_opened",
      eventId,
      channels: ["anthropic"],
      payload: { type: "circuit_breaker_opened", data: { event_id: eventId, project_id: project.id } },
    });
    const outbox = await deps.db.webhookOutbox.findUniqueOrThrow({ where: { eventId } });
    expect(outbox).toMatchObject({ outcome: "delivered", attempts: 1, svixMessageId: "msg_1" });
  });

  it("retries 500 and 429 (the job's backoff), with the same idempotency key every time", async () => {
    const { project, eventId } = await newEvent();
    svix.queueMessageStatuses(project.id, 500, 429);
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({ status: "retry" });
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({ status: "retry" });
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({
      status: "done",
      outcome: "delivered",
    });
    const calls = msgCalls(project.id);
    // No hidden retries inside the svix client: one HTTP call per job run.
    expect(calls.map((c) => c.status)).toEqual([500, 429, 202]);
    expect(new Set(calls.map((c) => c.headers["idempotency-key"]))).toEqual(new Set([eventId]));
    const outbox = await deps.db.webhookOutbox.findUniqueOrThrow({ where: { eventId } });
    expect(outbox.attempts).toBe(3);
  });

  it("a 4xx is final: recorded, never retried", async () => {
    const { project, eventId } = await newEvent();
    svix.queueMessageStatuses(project.id, 422);
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({
      status: "done",
      outcome: "rejected",
    });
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({ status: "done" });
    expect(msgCalls(project.id)).toHaveLength(1);
    const outbox = await deps.db.webhookOutbox.findUniqueOrThrow({ where: { eventId } });
    expect(outbox.outcome).toBe("rejected");
    expect(outbox.lastError).toMatch(/^Svix answered 422/);
    expect(outbox.completedAt).not.toBeNull();
  });

  it("409 (the message already exists) counts as delivered; an unreachable Svix is retryable", async () => {
    const { project, eventId } = await newEvent();
    svix.queueMessageStatuses(project.id, 409);
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({
      status: "done",
      outcome: "delivered",
    });

    const offline = {
      ...deps,
      config: { ...deps.config, SVIX_SERVER_URL: `http://127.0.0.1:${await freePort()}` },
    };
    const second = await newEvent();
    expect(await deliverWebhookEvent(offline, { eventId: second.eventId })).toMatchObject({
      status: "retry",
    });
    const outbox = await deps.db.webhookOutbox.findUniqueOrThrow({ where: { eventId: second.eventId } });
    expect(outbox.lastError).toMatch(/^Svix unreachable/);
    expect(outbox.completedAt).toBeNull();
  });
});
