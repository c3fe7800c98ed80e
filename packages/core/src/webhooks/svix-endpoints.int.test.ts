import { type FakeSvix, startFakeSvix } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Ctx, systemCtx } from "../context";
import { recordBreakerReport } from "../fleet/record-breaker-report";
import { seedProject, testDeps } from "../testing/fleet";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deleteWebhookEndpoint } from "./delete-webhook-endpoint";
import { deliverWebhookEvent } from "./deliver-webhook-event";
import { getWebhookEndpointSecret, listWebhookEndpoints } from "./list-webhook-endpoints";
import { replayWebhookMessage } from "./replay-webhook-message";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { sendTestWebhook } from "./send-test-webhook";
import { updateWebhookEndpoint } from "./update-webhook-endpoint";

let svix: FakeSvix;
let deps: ReturnType<typeof testDeps>;
let sys: Ctx;

beforeAll(async () => {
  svix = await startFakeSvix(0);
  deps = testDeps({ SVIX_API_KEY: "testsk_fake", SVIX_SERVER_URL: svix.url });
  sys = systemCtx(deps);
});
afterAll(async () => {
  await svix.close();
  await deps.db.$disconnect();
});

describe("endpoint pages over the Svix endpoint API (self-hosted Svix)", () => {
  it("creates, lists, filters, disables, rotates, tests, replays and deletes endpoints in the project's application", async () => {
    const { org, project } = await seedProject(deps, "team");
    await expect(
      createWebhookEndpoint(sys, { organizationId: org.id, url: "https://hooks.example.com/a" }),
    ).rejects.toMatchObject({ code: "INVALID" });
    const { endpoint, secret } = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      projectId: project.id,
      url: "https://hooks.example.com/a",
      eventTypes: ["circuit_breaker_opened"],
      providers: ["openai"],
    });
    expect(endpoint.id).toMatch(new RegExp(`^${project.id}\\.ep_\\d+$`));
    expect(secret).toMatch(/^whsec_/);
    const create = svix.calls.find(
      (c) => c.method === "POST" && c.path === `/api/v1/app/${project.id}/endpoint`,
    );
    expect(create?.body).toMatchObject({
      url: "https://hooks.example.com/a",
      filterTypes: ["circuit_breaker_opened"],
      channels: ["openai"],
    });

    const listed = await listWebhookEndpoints(sys, { organizationId: org.id });
    expect(listed.map((e) => [e.id, e.url, e.enabled])).toEqual([
      [endpoint.id, "https://hooks.example.com/a", true],
    ]);
    const disabled = await updateWebhookEndpoint(sys, {
      organizationId: org.id,
      endpointId: endpoint.id,
      enabled: false,
      eventTypes: [],
    });
    expect(disabled).toMatchObject({ enabled: false, eventTypes: [] });
    const patch = svix.calls.find((c) => c.method === "PATCH");
    expect(patch?.body).toMatchObject({ disabled: true, filterTypes: null });

    const rotated = await rotateWebhookSecret(sys, { organizationId: org.id, endpointId: endpoint.id });
    expect(rotated.secret).not.toBe(secret);
    expect(
      (await getWebhookEndpointSecret(sys, { organizationId: org.id, endpointId: endpoint.id })).secret,
    ).toBe(rotated.secret);

    const test = await sendTestWebhook(sys, {
      organizationId: org.id,
      endpointId: endpoint.id,
      eventType: "circuit_breaker_closed",
    });
    expect(test).toMatchObject({ success: true, trigger: "test" });
    expect(
      svix.calls.some(
        (c) =>
          c.path.endsWith("/send-example") &&
          (c.body as { eventType: string }).eventType === "circuit_breaker_closed",
      ),
    ).toBe(true);

    const r = await recordBreakerReport(deps, {
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: "i-1",
      state: "open",
      failureCount: 5,
      successCount: 0,
      reportedAt: new Date(),
    });
    const eventId = r.eventIds[0]!;
    await deliverWebhookEvent(deps, { eventId });
    await replayWebhookMessage(sys, { organizationId: org.id, eventId, endpointId: endpoint.id });
    const ref = endpoint.id.split(".")[1];
    expect(
      svix.calls.some((c) => c.path === `/api/v1/app/${project.id}/msg/${eventId}/endpoint/${ref}/resend`),
    ).toBe(true);

    // Another tenant cannot reach it, even knowing its id.
    const other = await seedProject(deps, "team");
    const asOther: Ctx = {
      ...deps,
      actor: { type: "user", userId: "u", isOperator: false },
      organizationId: other.org.id,
      role: "owner",
    };
    await expect(
      getWebhookEndpointSecret(asOther, { organizationId: other.org.id, endpointId: endpoint.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    await deleteWebhookEndpoint(sys, { organizationId: org.id, endpointId: endpoint.id });
    expect(await listWebhookEndpoints(sys, { organizationId: org.id })).toEqual([]);
  });
});
