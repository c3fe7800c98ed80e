import { type Ctx, createWebhookEndpoint, newId } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOf, webhookMessageResource } from "./schemas";
import {
  call,
  createManageTenant,
  createOperatorKey,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  shapeOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
let other: ManageTenant;
let endpointA: string;
let endpointB: string;
/** The messages of endpoint A, newest first. */
let expected: string[];
const URL_A = "https://hooks.example.test/a/secret-path?token=x";

async function endpoint(tenant: ManageTenant, url: string): Promise<string> {
  const ctx: Ctx = { ...h.sys, organizationId: tenant.organizationId };
  const { endpoint } = await createWebhookEndpoint(ctx, { organizationId: tenant.organizationId, url });
  return endpoint.id;
}

beforeAll(async () => {
  h = await startManageHarness();
  [t, other] = await Promise.all([createManageTenant(h), createManageTenant(h)]);
  endpointA = await endpoint(t, URL_A);
  endpointB = await endpoint(t, "https://hooks.example.test/b");
  // 25 messages to A (every fifth failed), every other one to B too, and one to B alone.
  const start = Date.now() - 60_000;
  const events = Array.from({ length: 26 }, (_, k) => ({
    id: newId("evt", start + k * 1000),
    organizationId: t.organizationId,
    projectId: t.projectId,
    type: k % 3 === 0 ? "budget_threshold_crossed" : "circuit_breaker_opened",
    payload: { type: "circuit_breaker_opened", data: { k } },
    deliverable: true,
    createdAt: new Date(start + k * 1000),
  }));
  await h.db.webhookEvent.createMany({ data: events });
  const deliveries = events.flatMap((e, k) => [
    ...(k < 25
      ? [
          {
            id: newId("dlv"),
            eventId: e.id,
            endpointId: endpointA,
            status: k % 5 === 0 ? "failed" : "succeeded",
          },
        ]
      : []),
    ...(k % 2 === 0 || k === 25
      ? [{ id: newId("dlv"), eventId: e.id, endpointId: endpointB, status: "succeeded" }]
      : []),
  ]);
  await h.db.webhookDelivery.createMany({ data: deliveries });
  const firstA = deliveries.find((d) => d.endpointId === endpointA)!;
  await h.db.webhookAttempt.create({
    data: {
      id: newId("att"),
      deliveryId: firstA.id,
      attemptNumber: 1,
      startedAt: new Date(start),
      latencyMs: 40,
      responseStatus: 500,
      success: false,
      error: "HTTP 500",
    },
  });
  expected = events
    .slice(0, 25)
    .map((e) => e.id)
    .reverse();
});
afterAll(async () => {
  await h?.close();
});

const messages = (key: string, query = "", endpointId = endpointA) =>
  call(h, "GET", `/webhook-endpoints/${endpointId}/messages${query}`, { key });

describe("webhook messages: happy", () => {
  it("pages through the endpoint's log newest first with the cursor, only this endpoint's deliveries", async () => {
    const seen: string[] = [];
    let after = "";
    let pages = 0;
    for (;;) {
      const page = shapeOf(listOf(webhookMessageResource), await messages(t.write, `?limit=10${after}`));
      pages++;
      seen.push(...page.data.map((m) => m.id));
      for (const m of page.data) {
        expect(m.deliveries.map((d) => d.endpointId)).toEqual([endpointA]);
        expect(m.deliveries[0]!.endpointUrl).toBe(URL_A);
      }
      if (!page.has_more) break;
      after = `&starting_after=${page.data.at(-1)!.id}`;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
    const oldest = shapeOf(
      listOf(webhookMessageResource),
      await messages(t.write, `?limit=1&starting_after=${expected[23]}`),
    );
    expect(oldest.data[0]).toMatchObject({ id: expected[24], status: "failed" });
    expect(oldest.data[0]!.deliveries[0]!.attempts).toMatchObject([
      { attemptNumber: 1, responseStatus: 500 },
    ]);
  });

  it("filters by status and event type, as the dashboard's log does", async () => {
    const failed = shapeOf(
      listOf(webhookMessageResource),
      await messages(t.read, "?status=failed&limit=100"),
    );
    expect(failed.data).toHaveLength(5);
    expect(failed.data.every((m) => m.status === "failed")).toBe(true);
    const budget = shapeOf(
      listOf(webhookMessageResource),
      await messages(t.read, "?eventType=budget_threshold_crossed&limit=100"),
    );
    expect(budget.data.map((m) => m.type)).toEqual(Array(9).fill("budget_threshold_crossed"));
    const b = shapeOf(listOf(webhookMessageResource), await messages(t.read, "?limit=100", endpointB));
    expect(b.data).toHaveLength(14);
  });

  it("a read key sees the endpoint's URL with path and query masked", async () => {
    const page = shapeOf(listOf(webhookMessageResource), await messages(t.read, "?limit=1"));
    expect(page.data[0]!.deliveries[0]!.endpointUrl).toBe("https://hooks.example.test/••••••");
  });
});

describe("webhook messages: error", () => {
  it("bad query parameters are 422 by parameter name; an unknown endpoint 404", async () => {
    const p = problemOf(await messages(t.read, "?limit=101&status=lost"), 422, "validation-failed");
    expect(p.errors!.map((e) => e.parameter).sort()).toEqual(["limit", "status"]);
    problemOf(await messages(t.read, "", "whe_nope"), 404, "not-found");
  });
});

describe("webhook messages: security", () => {
  it("another organization's endpoint is 404, and its log is never shown", async () => {
    problemOf(await messages(other.read, ""), 404, "not-found");
    problemOf(await messages(other.write, "?status=failed"), 404, "not-found");
  });

  it("SDK keys are 401 and operator keys 403", async () => {
    problemOf(await messages(t.sdkKey, ""), 401, "unauthorized");
    const op = await createOperatorKey(h);
    problemOf(await messages(op.key, ""), 403, "forbidden");
  });
});
