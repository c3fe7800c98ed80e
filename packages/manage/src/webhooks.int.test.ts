import { freePort, startWebhookReceiver, type WebhookReceiver } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createdWebhookEndpointResource,
  listOf,
  webhookEndpointResource,
  webhookEndpointSummaryResource,
  webhookTestResource,
} from "./schemas";
import {
  call,
  createManageTenant,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  shapeOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
let other: ManageTenant;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // The receiver listens on loopback, which the delivery guard refuses unless told otherwise.
  h = await startManageHarness({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true" } });
  t = await createManageTenant(h);
  other = await createManageTenant(h);
  receiver = await startWebhookReceiver({ port: await freePort(), verify: () => ({}) });
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

describe("webhook endpoints: happy", () => {
  it("create (secret once), read, list, update, send a test, delete", async () => {
    const created = await call(h, "POST", "/webhook-endpoints", {
      key: t.write,
      body: {
        url: `${receiver.url}/hooks/secret-path`,
        description: "ops",
        eventTypes: ["circuit_breaker_opened"],
      },
    });
    expect(created.status).toBe(201);
    const e = shapeOf(createdWebhookEndpointResource, created);
    expect(e.secret).toMatch(/^whsec_/);
    expect(e).toMatchObject({
      organizationId: t.organizationId,
      eventTypes: ["circuit_breaker_opened"],
      enabled: true,
    });

    const read = shapeOf(
      webhookEndpointResource,
      await call(h, "GET", `/webhook-endpoints/${e.id}`, { key: t.write }),
    );
    expect(read.url).toBe(`${receiver.url}/hooks/secret-path`);
    expect(JSON.stringify(read)).not.toContain(e.secret);

    const list = shapeOf(
      listOf(webhookEndpointSummaryResource),
      await call(h, "GET", "/webhook-endpoints", { key: t.write }),
    );
    expect(list.data.map((x) => x.id)).toEqual([e.id]);

    const updated = await call(h, "PATCH", `/webhook-endpoints/${e.id}`, {
      key: t.write,
      body: { description: "on-call" },
    });
    expect(shapeOf(webhookEndpointResource, updated).description).toBe("on-call");

    const test = await call(h, "POST", `/webhook-endpoints/${e.id}/test`, { key: t.write, body: {} });
    expect(test.status).toBe(200);
    expect(shapeOf(webhookTestResource, test)).toMatchObject({
      endpointId: e.id,
      success: true,
      statusCode: 200,
    });
    await receiver.waitFor((r) => r.length >= 1, 5_000);

    expect((await call(h, "DELETE", `/webhook-endpoints/${e.id}`, { key: t.write })).status).toBe(204);
    problemOf(await call(h, "GET", `/webhook-endpoints/${e.id}`, { key: t.write }), 404, "not-found");
  });

  it("a read key sees URLs with their path masked", async () => {
    const e = (
      await call(h, "POST", "/webhook-endpoints", { key: t.write, body: { url: `${receiver.url}/T/B/X` } })
    ).json;
    const read = await call(h, "GET", `/webhook-endpoints/${e.id}`, { key: t.read });
    expect(read.json.url).toBe(`${new URL(receiver.url).origin}/••••••`);
    const list = await call(h, "GET", "/webhook-endpoints", { key: t.read });
    expect(list.text).not.toContain("/T/B/X");
  });
});

describe("webhook endpoints: error", () => {
  it("bad URLs, event types and formats are 422 with pointers; unknown endpoints 404", async () => {
    const bad = await call(h, "POST", "/webhook-endpoints", {
      key: t.write,
      body: { url: "ftp://example.com", eventTypes: ["nope"], format: "fax" },
    });
    const pointers = problemOf(bad, 422, "validation-failed").errors!.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/url", "/format"]));
    problemOf(
      await call(h, "PATCH", "/webhook-endpoints/ep_nope", { key: t.write, body: { enabled: false } }),
      404,
      "not-found",
    );
    problemOf(
      await call(h, "POST", "/webhook-endpoints/ep_nope/test", { key: t.write, body: {} }),
      404,
      "not-found",
    );
  });
});

describe("webhook endpoints: security", () => {
  it("another organization's endpoint is 404 to every method and stays as it was", async () => {
    const theirs = (
      await call(h, "POST", "/webhook-endpoints", { key: other.write, body: { url: `${receiver.url}/x` } })
    ).json;
    const path = `/webhook-endpoints/${theirs.id}`;
    problemOf(await call(h, "GET", path, { key: t.read }), 404, "not-found");
    problemOf(await call(h, "PATCH", path, { key: t.write, body: { enabled: false } }), 404, "not-found");
    problemOf(await call(h, "POST", `${path}/test`, { key: t.write, body: {} }), 404, "not-found");
    problemOf(await call(h, "DELETE", path, { key: t.write }), 404, "not-found");
    expect((await call(h, "GET", path, { key: other.write })).json.enabled).toBe(true);
  });

  it("a read key's writes are 403; an SDK key 401", async () => {
    problemOf(
      await call(h, "POST", "/webhook-endpoints", { key: t.read, body: { url: `${receiver.url}/y` } }),
      403,
      "forbidden",
    );
    problemOf(await call(h, "GET", "/webhook-endpoints", { key: t.sdkKey }), 401, "unauthorized");
  });
});
