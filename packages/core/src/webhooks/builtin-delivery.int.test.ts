import { createJobsClient } from "@breakwater/queue";
import { startWebhookReceiver, type WebhookReceiver } from "@breakwater/queue/testing";
import { Webhook } from "svix";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Ctx, systemCtx } from "../context";
import { WEBHOOK_EVENT_SAMPLES } from "../events/breaker-events";
import { recordBreakerReport } from "../fleet/record-breaker-report";
import { newId } from "../ids";
import { seedProject, testDeps } from "../testing/fleet";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverWebhookEvent } from "./deliver-webhook-event";
import { EndpointLanes } from "./endpoint-lanes";
import { listWebhookMessages } from "./list-webhook-messages";
import { enqueueWebhookDeliveries, recordWebhookEvent, webhookJobPriority } from "./record-webhook-event";
import { replayWebhookMessage } from "./replay-webhook-message";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { sendTestWebhook } from "./send-test-webhook";

// The receivers are on loopback, which the address guard refuses unless private URLs are allowed.
const deps = testDeps({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
const sys: Ctx = systemCtx(deps);
let secrets: string[] = [];
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver({
    port: 0,
    // Accept a message signed with any secret the current test registered, as svix verifies it.
    verify: (body, headers) => {
      const errors: string[] = [];
      for (const s of secrets) {
        try {
          return new Webhook(s).verify(body, headers);
        } catch (err) {
          errors.push((err as Error).message);
        }
      }
      throw new Error(errors.join("; ") || "no secret");
    },
  });
});
afterAll(async () => {
  await receiver.close();
  await deps.db.$disconnect();
});
beforeEach(() => {
  secrets = [];
  receiver.setBehaviour(() => ({ status: 200 }));
});

let clock = Date.parse("2026-11-30T08:00:00Z");
async function openBreaker(projectId: string, provider = "openai", instance = "i-1") {
  clock += 1000;
  const r = await recordBreakerReport(deps, {
    projectId,
    provider,
    sdkInstanceId: instance,
    state: "open",
    failureCount: 5,
    successCount: 0,
    reportedAt: new Date(clock),
  });
  expect(r.eventIds).toHaveLength(1);
  return r.eventIds[0]!;
}

async function setup(opts: { eventTypes?: string[]; providers?: string[]; url?: string } = {}) {
  const { org, project } = await seedProject(deps, "team");
  const { endpoint, secret } = await createWebhookEndpoint(sys, {
    organizationId: org.id,
    url: opts.url ?? receiver.url,
    eventTypes: opts.eventTypes as never,
    providers: opts.providers,
  });
  secrets.push(secret);
  return { org, project, endpoint, secret };
}

const mine = (id: string) => receiver.received.filter((r) => r.webhookId === id);

describe("built-in delivery", () => {
  it("signs every request so svix's Webhook.verify accepts it, records the attempt, completes the outbox", async () => {
    const { project } = await setup();
    const eventId = await openBreaker(project.id);
    const r = await deliverWebhookEvent(deps, { eventId });
    expect(r).toMatchObject({ status: "done", outcome: "delivered", backend: "builtin" });
    expect(mine(eventId)).toHaveLength(1);
    expect(mine(eventId)[0]).toMatchObject({ verified: true });
    expect(JSON.parse(mine(eventId)[0]!.body)).toMatchObject({
      type: "circuit_breaker_opened",
      data: { event_id: eventId, project_id: project.id },
    });
    // The body keeps the documented key order even though Postgres stores jsonb.
    expect(mine(eventId)[0]!.body.startsWith('{"type":"circuit_breaker_opened","timestamp":')).toBe(true);
    const outbox = await deps.db.webhookOutbox.findUniqueOrThrow({ where: { eventId } });
    expect(outbox).toMatchObject({ outcome: "delivered" });
    expect(outbox.completedAt).not.toBeNull();
    // Running the job again (a duplicate, a sweeper re-add) sends nothing.
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({ status: "done" });
    expect(mine(eventId)).toHaveLength(1);
  });

  it("concurrent runs of one event send it once per endpoint", async () => {
    const { project } = await setup();
    const eventId = await openBreaker(project.id);
    receiver.setBehaviour(() => ({ status: 200, delayMs: 100 }));
    await Promise.all(Array.from({ length: 6 }, () => deliverWebhookEvent(deps, { eventId })));
    expect(mine(eventId)).toHaveLength(1);
  });

  it("retries a 500 on the schedule (second attempt 5 s later) and succeeds later", async () => {
    const { project } = await setup();
    const eventId = await openBreaker(project.id);
    receiver.setBehaviour(({ count }) => ({ status: count < 3 ? 500 : 204 }));
    const t = Date.now();
    const first = await deliverWebhookEvent(deps, { eventId });
    expect(first.status).toBe("retry");
    // The real schedule: the second attempt is due 5 s after the first.
    const due = first.status === "retry" ? first.at!.getTime() - t : 0;
    expect(due).toBeGreaterThanOrEqual(4_900);
    expect(due).toBeLessThan(6_000);
    // Not due yet: nothing is sent before its time.
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({ status: "retry", attempts: [] });
    // Time passes (what the delayed job waits for); a zero schedule keeps the test fast after that.
    await deps.db.webhookDelivery.updateMany({ where: { eventId }, data: { nextAttemptAt: new Date() } });
    const opts = { retryScheduleMs: [0, 0, 0, 0] };
    expect((await deliverWebhookEvent(deps, { eventId }, opts)).status).toBe("retry");
    expect(await deliverWebhookEvent(deps, { eventId }, opts)).toMatchObject({
      status: "done",
      outcome: "delivered",
    });
    const log = await listWebhookMessages(sys, {
      organizationId: (await deps.db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } }))
        .organizationId,
    });
    const attempts = log.items.find((m) => m.id === eventId)!.deliveries[0]!.attempts;
    expect(attempts.map((a) => [a.responseStatus, a.success])).toEqual([
      [500, false],
      [500, false],
      [204, true],
    ]);
    expect(attempts.every((a) => a.latencyMs !== null && a.latencyMs >= 0)).toBe(true);
  });

  it("gives up after the last scheduled attempt (exhausted)", async () => {
    const { project } = await setup();
    const eventId = await openBreaker(project.id);
    receiver.setBehaviour(() => ({ status: 503 }));
    const opts = { retryScheduleMs: [0, 0, 0] };
    let r = await deliverWebhookEvent(deps, { eventId }, opts);
    for (let i = 0; i < 5 && r.status === "retry"; i++)
      r = await deliverWebhookEvent(deps, { eventId }, opts);
    expect(r).toMatchObject({ status: "done", outcome: "failed" });
    expect(mine(eventId)).toHaveLength(3);
    const d = await deps.db.webhookDelivery.findFirstOrThrow({ where: { eventId } });
    expect(d).toMatchObject({ status: "exhausted", attemptCount: 3 });
  });

  it("a hanging receiver costs one bounded attempt, never a blocked worker", async () => {
    const { project } = await setup();
    const eventId = await openBreaker(project.id);
    receiver.setBehaviour(() => "hang");
    const t = Date.now();
    const r = await deliverWebhookEvent(deps, { eventId }, { timeoutMs: 500 });
    expect(Date.now() - t).toBeLessThan(2_000);
    expect(r).toMatchObject({ status: "retry" });
    expect(r.attempts[0]).toMatchObject({
      success: false,
      statusCode: null,
      error: "no answer within 0.5 s",
    });
  });

  it("410 Gone disables the endpoint and stops retrying", async () => {
    const { project, endpoint } = await setup();
    const eventId = await openBreaker(project.id);
    receiver.setBehaviour(() => ({ status: 410 }));
    expect(await deliverWebhookEvent(deps, { eventId })).toMatchObject({ status: "done", outcome: "failed" });
    const e = await deps.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(e).toMatchObject({ enabled: false, disabledReason: "The receiver answered 410 Gone" });
    // Later events skip the disabled endpoint entirely.
    const next = await openBreaker(project.id, "anthropic");
    expect(await deliverWebhookEvent(deps, { eventId: next })).toMatchObject({ outcome: "no_endpoints" });
    expect(mine(next)).toHaveLength(0);
  });

  it("an endpoint failing for 5 days is disabled on its next failure", async () => {
    const { project, endpoint } = await setup();
    await deps.db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { failingSince: new Date(Date.now() - 5 * 24 * 3600 * 1000 - 1000) },
    });
    const eventId = await openBreaker(project.id);
    receiver.setBehaviour(() => ({ status: 500 }));
    await deliverWebhookEvent(deps, { eventId });
    const e = await deps.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(e).toMatchObject({ enabled: false, disabledReason: "Every attempt failed for 5 days" });
  });

  it("filters by event type and provider, and never sends an event to an endpoint created after it", async () => {
    const { org, project } = await setup({ eventTypes: ["circuit_breaker_closed"] });
    const { secret } = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: receiver.url,
      providers: ["anthropic"],
    });
    secrets.push(secret);
    const openai = await openBreaker(project.id, "openai");
    const anthropic = await openBreaker(project.id, "anthropic");
    await deliverWebhookEvent(deps, { eventId: openai });
    await deliverWebhookEvent(deps, { eventId: anthropic });
    expect(mine(openai)).toHaveLength(0); // opened type filtered by #1, provider filtered by #2
    expect(mine(anthropic)).toHaveLength(1); // #2 only
    const late = await openBreaker(project.id, "anthropic", "i-2");
    const { secret: s3 } = await createWebhookEndpoint(sys, { organizationId: org.id, url: receiver.url });
    secrets.push(s3);
    // Created after the event: not a recipient, whenever the job runs.
    await new Promise((r) => setTimeout(r, 5));
    await deliverWebhookEvent(deps, { eventId: late });
    expect(mine(late)).toHaveLength(1);
  });

  it("a closed message waits for its episode's opened message to reach the endpoint first", async () => {
    const { project } = await setup();
    const opened = await openBreaker(project.id, "openai", "order-1");
    clock += 1000;
    const closed = (
      await recordBreakerReport(deps, {
        projectId: project.id,
        provider: "openai",
        sdkInstanceId: "order-1",
        state: "closed",
        failureCount: 0,
        successCount: 3,
        reportedAt: new Date(clock),
      })
    ).eventIds[0]!;
    // The closed job runs first (e.g. the opened one is still queued): nothing is sent.
    const early = await deliverWebhookEvent(deps, { eventId: closed });
    expect(early).toMatchObject({ status: "retry", attempts: [] });
    expect(mine(closed)).toHaveLength(0);
    expect(await deliverWebhookEvent(deps, { eventId: opened })).toMatchObject({ outcome: "delivered" });
    await deps.db.webhookDelivery.updateMany({
      where: { eventId: closed },
      data: { nextAttemptAt: new Date() },
    });
    expect(await deliverWebhookEvent(deps, { eventId: closed })).toMatchObject({ outcome: "delivered" });
    expect(mine(opened)[0]!.receivedAt).toBeLessThanOrEqual(mine(closed)[0]!.receivedAt);
    // Waiting cost no attempt.
    expect(
      (await deps.db.webhookDelivery.findFirstOrThrow({ where: { eventId: closed } })).attemptCount,
    ).toBe(1);
  });

  it("refuses endpoint URLs that are not http(s)", async () => {
    const { org } = await seedProject(deps, "team");
    for (const url of ["ftp://example.com/x", "javascript:alert(1)", "file:///etc/passwd", "not a url"]) {
      await expect(createWebhookEndpoint(sys, { organizationId: org.id, url })).rejects.toThrow(/http/);
    }
  });

  it("free plan allows no endpoint (LIMIT_EXCEEDED)", async () => {
    const { org } = await seedProject(deps, "free");
    await expect(
      createWebhookEndpoint(sys, { organizationId: org.id, url: receiver.url }),
    ).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
    });
  });

  it("replay resends with the same webhook-id; test events are signed and logged as tests", async () => {
    const { org, project, endpoint } = await setup();
    const eventId = await openBreaker(project.id);
    await deliverWebhookEvent(deps, { eventId });
    const replay = await replayWebhookMessage(sys, {
      organizationId: org.id,
      eventId,
      endpointId: endpoint.id,
    });
    expect(replay).toMatchObject({ success: true, trigger: "replay", statusCode: 200 });
    expect(mine(eventId)).toHaveLength(2);
    expect(mine(eventId).every((r) => r.verified)).toBe(true);

    const test = await sendTestWebhook(sys, { organizationId: org.id, endpointId: endpoint.id });
    expect(test).toMatchObject({ success: true, trigger: "test" });
    expect(mine(test.eventId)[0]).toMatchObject({ verified: true });
    const log = await listWebhookMessages(sys, { organizationId: org.id });
    expect(log.items[0]).toMatchObject({ id: test.eventId, isTest: true, status: "delivered" });
  });

  it("after a secret rotation, requests verify with the old and the new secret", async () => {
    const { org, project, endpoint, secret: oldSecret } = await setup();
    const { secret: newSecret } = await rotateWebhookSecret(sys, {
      organizationId: org.id,
      endpointId: endpoint.id,
    });
    const eventId = await openBreaker(project.id);
    await deliverWebhookEvent(deps, { eventId });
    const got = mine(eventId)[0]!;
    const headers = {
      "webhook-id": got.webhookId,
      "webhook-timestamp": got.timestamp,
      "webhook-signature": got.signature,
    };
    expect(new Webhook(oldSecret).verify(got.body, headers)).toBeTruthy();
    expect(new Webhook(newSecret).verify(got.body, headers)).toBeTruthy();
  });

  it("another tenant's endpoint or message is NOT_FOUND", async () => {
    const a = await setup();
    const b = await seedProject(deps, "team");
    const asB: Ctx = {
      ...deps,
      actor: { type: "user", userId: "user_x", isOperator: false },
      organizationId: b.org.id,
      role: "owner",
    };
    await expect(
      sendTestWebhook(asB, { organizationId: b.org.id, endpointId: a.endpoint.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(listWebhookMessages(asB, { organizationId: a.org.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("a burst delivered at once: each message once, statements shared, every closed after its opened", async () => {
    const { project } = await setup();
    // 30 instances open, then close: 60 events, every closed behind its own opened.
    const opened: string[] = [];
    const closed: string[] = [];
    for (let i = 0; i < 30; i++) opened.push(await openBreaker(project.id, "openai", `burst-${i}`));
    for (let i = 0; i < 30; i++) {
      clock += 1000;
      const r = await recordBreakerReport(deps, {
        projectId: project.id,
        provider: "openai",
        sdkInstanceId: `burst-${i}`,
        state: "closed",
        failureCount: 0,
        successCount: 3,
        reportedAt: new Date(clock),
      });
      closed.push(r.eventIds[0]!);
    }
    // Few lanes, so deliveries wait for one; all 60 runs at once, closed ones first.
    const lanes = new EndpointLanes({ perEndpoint: 4, slowSlots: 2, maxWaiting: 100 });
    const results = await Promise.all(
      [...closed, ...opened].map((eventId) => deliverWebhookEvent(deps, { eventId }, { lanes })),
    );
    // A closed whose opened was not sent yet may have been put back: its run asks to come again.
    for (let round = 0; round < 5 && results.some((r) => r.status === "retry"); round++) {
      await deps.db.webhookDelivery.updateMany({
        where: { event: { projectId: project.id }, status: "pending" },
        data: { nextAttemptAt: new Date() },
      });
      const again = results.map((r, i) => ({ r, eventId: [...closed, ...opened][i]! }));
      for (const x of again.filter((y) => y.r.status === "retry"))
        results[again.indexOf(x)] = await deliverWebhookEvent(deps, { eventId: x.eventId }, { lanes });
    }
    expect(results.every((r) => r.status === "done" && r.outcome === "delivered")).toBe(true);
    for (let i = 0; i < 30; i++) {
      expect(mine(opened[i]!)).toHaveLength(1);
      expect(mine(closed[i]!)).toHaveLength(1);
      expect(mine(opened[i]!)[0]!.receivedAt).toBeLessThanOrEqual(mine(closed[i]!)[0]!.receivedAt);
    }
    const outbox = await deps.db.webhookOutbox.findMany({
      where: { eventId: { in: [...opened, ...closed] } },
    });
    expect(outbox.every((o) => o.completedAt !== null && o.outcome === "delivered")).toBe(true);
    const attempts = await deps.db.webhookAttempt.count({
      where: { delivery: { eventId: { in: [...opened, ...closed] } } },
    });
    expect(attempts).toBe(60);
  });

  it("breaker events are queued behind incidents and budget alerts (BullMQ priority)", async () => {
    const queued = createJobsClient({ ...deps.config, QUEUE_PREFIX: `t${Date.now().toString(36)}` });
    try {
      const withJobs = { ...deps, jobs: queued };
      const { project } = await setup();
      const breaker = await openBreaker(project.id, "openai", "prio-1");
      // The incident is recorded like the evaluator records it; both are enqueued by id alone.
      const incident = newId("evt");
      const sample = WEBHOOK_EVENT_SAMPLES.provider_incident_opened;
      await deps.db.$transaction((tx) =>
        recordWebhookEvent(tx, {
          id: incident,
          organizationId: project.organizationId,
          projectId: project.id,
          episodeId: newId("inc"),
          payload: { ...sample, data: { ...sample.data, event_id: incident, project_id: project.id } },
          deliverable: true,
          now: new Date(),
        }),
      );
      await enqueueWebhookDeliveries(withJobs, [breaker]);
      await enqueueWebhookDeliveries(withJobs, [incident]);
      const counts = await queued.counts("webhook-deliver");
      // The breaker event waits among the prioritized jobs; the incident, recorded after it, is next.
      expect(counts.prioritized).toBe(1);
      expect(counts.waiting).toBe(1);
      expect(webhookJobPriority("circuit_breaker_closed")).toBeGreaterThan(0);
      expect(webhookJobPriority("budget_threshold_crossed")).toBeUndefined();
    } finally {
      await queued.close();
    }
  });
});
