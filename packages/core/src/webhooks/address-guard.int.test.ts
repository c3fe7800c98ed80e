import type { LookupAddress } from "node:dns";
import { startWebhookReceiver, type WebhookReceiver } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Deps, systemCtx } from "../context";
import { recordBreakerReport } from "../fleet/record-breaker-report";
import { seedProject, testDeps } from "../testing/fleet";
import type { Resolve } from "./address-guard";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverWebhookEvent } from "./deliver-webhook-event";
import { sendTestWebhook } from "./send-test-webhook";

// Default config: private addresses refused. The same database, with the flag set, for the
// "allowed" half.
const guarded = testDeps({ WEBHOOK_ALLOW_PRIVATE_URLS: "false" });
const allowing = testDeps({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
let receiver: WebhookReceiver;

/** A name that resolves to the loopback receiver, as a rebinding DNS server would answer. */
const REBIND_HOST = "hooks.rebind.example";
const asked: string[] = [];
const rebindResolve: Resolve = async (hostname): Promise<LookupAddress[]> => {
  asked.push(hostname);
  if (hostname !== REBIND_HOST) throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
  return [{ address: "127.0.0.1", family: 4 }];
};

beforeAll(async () => {
  receiver = await startWebhookReceiver({ port: 0, verify: () => true });
});
afterAll(async () => {
  await receiver.close();
  await guarded.db.$disconnect();
  await allowing.db.$disconnect();
});

let clock = Date.parse("2026-11-30T09:00:00Z");
async function eventFor(deps: Deps, url: string) {
  const { org, project } = await seedProject(deps, "team");
  const { endpoint } = await createWebhookEndpoint(systemCtx(deps), { organizationId: org.id, url });
  clock += 1000;
  const r = await recordBreakerReport(deps, {
    projectId: project.id,
    provider: "openai",
    sdkInstanceId: "i-guard",
    state: "open",
    failureCount: 5,
    successCount: 0,
    reportedAt: new Date(clock),
  });
  return { org, endpoint, eventId: r.eventIds[0]! };
}

const reached = (eventId: string) => receiver.received.filter((r) => r.webhookId === eventId);

describe("webhook address guard, end to end", () => {
  it("refuses a receiver at 127.0.0.1 at connect time and records the refusal as the attempt's error", async () => {
    const { eventId } = await eventFor(guarded, receiver.url);
    const r = await deliverWebhookEvent(guarded, { eventId });
    expect(r.status).toBe("retry");
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ success: false, statusCode: null });
    expect(r.attempts[0]!.error).toMatch(/^refused: 127\.0\.0\.1, a loopback address/);
    const attempt = await guarded.db.webhookAttempt.findFirstOrThrow({
      where: { delivery: { eventId } },
    });
    expect(attempt).toMatchObject({ success: false, responseStatus: null, responseSnippet: null });
    expect(attempt.error).toMatch(/^refused: 127\.0\.0\.1/);
    expect(reached(eventId)).toHaveLength(0);
  });

  it("refuses a name that resolves to 127.0.0.1 (DNS rebinding) with the receiver never reached", async () => {
    const url = `http://${REBIND_HOST}:${receiver.port}/hooks`;
    const { eventId } = await eventFor(guarded, url);
    asked.length = 0;
    const r = await deliverWebhookEvent(guarded, { eventId }, { resolve: rebindResolve });
    expect(asked).toEqual([REBIND_HOST]);
    expect(r.attempts[0]!.error).toMatch(/^refused: hooks\.rebind\.example resolves to 127\.0\.0\.1/);
    expect(reached(eventId)).toHaveLength(0);
  });

  it("send test (the dashboard's path) is refused the same way and leaks nothing of the host", async () => {
    // The URL parser normalises the literal to ::ffff:7f00:1; the hex form is classified the same.
    const { org, endpoint } = await eventFor(guarded, `http://[::ffff:127.0.0.1]:${receiver.port}/x`);
    const before = receiver.received.length;
    const test = await sendTestWebhook(systemCtx(guarded), {
      organizationId: org.id,
      endpointId: endpoint.id,
    });
    expect(test).toMatchObject({ success: false, statusCode: null, trigger: "test" });
    expect(test.error).toMatch(/^refused: ::ffff:7f00:1, a loopback address/);
    expect(receiver.received.length).toBe(before);
  });

  it("with WEBHOOK_ALLOW_PRIVATE_URLS=true both are delivered", async () => {
    const literal = await eventFor(allowing, receiver.url);
    expect(await deliverWebhookEvent(allowing, { eventId: literal.eventId })).toMatchObject({
      status: "done",
      outcome: "delivered",
    });
    expect(reached(literal.eventId)).toHaveLength(1);

    const named = await eventFor(allowing, `http://${REBIND_HOST}:${receiver.port}/hooks`);
    expect(
      await deliverWebhookEvent(allowing, { eventId: named.eventId }, { resolve: rebindResolve }),
    ).toMatchObject({ status: "done", outcome: "delivered" });
    expect(reached(named.eventId)).toHaveLength(1);
  });
});
