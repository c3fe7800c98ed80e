import { recordBreakerReport } from "@breakwater/core";
import { afterAll, describe, expect, it } from "vitest";
import { apiTestEnv, codeOf } from "../testing";
import { maskEndpointUrl } from "./webhooks";

const { deps, auth, signUp, close } = apiTestEnv("api-webhooks-test");
afterAll(close);

describe("webhooks and fleet procedures", () => {
  it("manage endpoints, read the catalogue, log and fleet grid; other tenants get NOT_FOUND", async () => {
    const a = await signUp("Ada");
    const asA = await a.caller();
    const org = await asA.organization.create({ name: "Hooks Inc" });
    // Free plan: no endpoints allowed.
    expect(await codeOf(asA.webhooks.createEndpoint({ url: "https://example.com/hook" }))).toBe(
      "PRECONDITION_FAILED",
    );
    const team = await deps.db.plan.findUniqueOrThrow({ where: { slug: "team" } });
    await deps.db.subscription.update({ where: { organizationId: org.id }, data: { planId: team.id } });

    expect(await codeOf(asA.webhooks.createEndpoint({ url: "ftp://example.com/hook" }))).toBe("BAD_REQUEST");
    const { endpoint, secret } = await asA.webhooks.createEndpoint({
      url: "https://example.com/hook",
      eventTypes: ["circuit_breaker_opened"],
    });
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await asA.webhooks.listEndpoints())).not.toContain(secret);
    expect((await asA.webhooks.revealSecret({ endpointId: endpoint.id })).secret).toBe(secret);
    const rotated = await asA.webhooks.rotateSecret({ endpointId: endpoint.id });
    expect(rotated.secret).not.toBe(secret);
    expect(await asA.webhooks.settings()).toMatchObject({
      backend: "builtin",
      breakerWebhooks: true,
      endpointCount: 1,
    });
    expect((await asA.webhooks.eventTypes()).map((e) => e.type)).toEqual([
      "circuit_breaker_opened",
      "circuit_breaker_closed",
      "budget_threshold_crossed",
      "provider_incident_opened",
      "provider_incident_updated",
      "provider_incident_resolved",
    ]);

    const project = await asA.project.create({ name: "svc", limits: { daily: 5 } });
    await recordBreakerReport(deps, {
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: "i-1",
      state: "open",
      failureCount: 3,
      successCount: 0,
      reportedAt: new Date(),
    });
    const log = await asA.webhooks.listMessages();
    // The one instance Down (of one) also opened a provider incident, listed beside it.
    expect(log.items.map((m) => m.type).sort()).toEqual([
      "circuit_breaker_opened",
      "provider_incident_opened",
    ]);
    expect(log.items.find((m) => m.type === "circuit_breaker_opened")).toMatchObject({
      type: "circuit_breaker_opened",
      status: "pending",
      deliverable: true,
    });
    const grid = await asA.fleet.overview();
    expect(grid.projects[0]?.cells.openai).toMatchObject({ status: "Down", summary: "1 of 1 instance Down" });
    const page = await asA.fleet.provider({ projectId: project.id, provider: "openai" });
    expect(page.openEpisodes).toHaveLength(1);

    const b = await signUp("Bob");
    const asB = await b.caller();
    await asB.organization.create({ name: "Other" });
    expect(await codeOf(asB.webhooks.getEndpoint({ endpointId: endpoint.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.webhooks.deleteEndpoint({ endpointId: endpoint.id }))).toBe("NOT_FOUND");
    expect(await codeOf(asB.webhooks.replay({ eventId: log.items[0]!.id, endpointId: endpoint.id }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(asB.fleet.provider({ projectId: project.id, provider: "openai" }))).toBe("NOT_FOUND");
    expect((await asB.webhooks.listMessages()).items).toEqual([]);
    expect(await codeOf(asA.webhooks.portalUrl({ projectId: project.id }))).toBe("BAD_REQUEST");
    await asA.webhooks.deleteEndpoint({ endpointId: endpoint.id });
    expect(await asA.webhooks.listEndpoints()).toEqual([]);
  });

  it("masks endpoint URLs below admin and refuses every change to a viewer with FORBIDDEN", async () => {
    const owner = await signUp("Olga");
    const viewer = await signUp("Vic");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Masked" });
    const team = await deps.db.plan.findUniqueOrThrow({ where: { slug: "team" } });
    await deps.db.subscription.update({ where: { organizationId: org.id }, data: { planId: team.id } });
    const slackUrl = "https://hooks.slack.com/services/T0001/B0002/abcdefSECRET?x=1";
    const { endpoint } = await asOwner.webhooks.createEndpoint({ url: slackUrl });
    // Messages are only ever sent to loopback (port 9 refuses): the delivery row carries this URL.
    const localUrl = "http://127.0.0.1:9/hooks/token-123";
    const { endpoint: local } = await asOwner.webhooks.createEndpoint({ url: localUrl });
    const project = await asOwner.project.create({ name: "svc", limits: { daily: 5 } });
    const test = await asOwner.webhooks.sendTest({ endpointId: local.id });
    await auth.api.addMember({ body: { userId: viewer.userId, organizationId: org.id, role: "viewer" } });

    // Admins and owners see the URL whole.
    expect((await asOwner.webhooks.getEndpoint({ endpointId: endpoint.id })).url).toBe(slackUrl);
    const asSeen = await asOwner.webhooks.getMessage({ eventId: test.eventId });
    expect(asSeen.deliveries[0]?.endpointUrl).toBe(localUrl);

    // A viewer reads everything, but never the path or query of a URL.
    const asViewer = await viewer.caller();
    const masked = "https://hooks.slack.com/••••••";
    expect((await asViewer.webhooks.listEndpoints()).map((e) => e.url)).toEqual([
      masked,
      "http://127.0.0.1:9/••••••",
    ]);
    expect((await asViewer.webhooks.getEndpoint({ endpointId: endpoint.id })).url).toBe(masked);
    const log = await asViewer.webhooks.listMessages();
    expect(log.items.map((m) => m.id)).toEqual([test.eventId]);
    expect(log.items[0]?.deliveries[0]?.endpointUrl).toBe("http://127.0.0.1:9/••••••");
    const message = await asViewer.webhooks.getMessage({ eventId: test.eventId });
    expect(message.deliveries[0]?.endpointUrl).toBe("http://127.0.0.1:9/••••••");
    expect(JSON.stringify(log)).not.toContain("token-123");
    expect(await asViewer.webhooks.settings()).toMatchObject({ endpointCount: 2, maxEndpoints: 10 });

    const ref = { endpointId: endpoint.id };
    const refusals = {
      createEndpoint: await codeOf(asViewer.webhooks.createEndpoint({ url: "https://example.com/x" })),
      updateEndpoint: await codeOf(asViewer.webhooks.updateEndpoint({ ...ref, enabled: false })),
      deleteEndpoint: await codeOf(asViewer.webhooks.deleteEndpoint(ref)),
      rotateSecret: await codeOf(asViewer.webhooks.rotateSecret(ref)),
      revealSecret: await codeOf(asViewer.webhooks.revealSecret(ref)),
      sendTest: await codeOf(asViewer.webhooks.sendTest(ref)),
      replay: await codeOf(asViewer.webhooks.replay({ eventId: test.eventId, endpointId: endpoint.id })),
      portalUrl: await codeOf(asViewer.webhooks.portalUrl({ projectId: project.id })),
    };
    expect(refusals).toEqual({
      createEndpoint: "FORBIDDEN",
      updateEndpoint: "FORBIDDEN",
      deleteEndpoint: "FORBIDDEN",
      rotateSecret: "FORBIDDEN",
      revealSecret: "FORBIDDEN",
      sendTest: "FORBIDDEN",
      replay: "FORBIDDEN",
      portalUrl: "FORBIDDEN",
    });
    // Nothing changed.
    expect(await asOwner.webhooks.getEndpoint(ref)).toMatchObject({ enabled: true, url: slackUrl });
  });

  it("filters the log by status and pages it by key", async () => {
    const a = await signUp("Pat");
    const asA = await a.caller();
    const org = await asA.organization.create({ name: "Paged" });
    const team = await deps.db.plan.findUniqueOrThrow({ where: { slug: "team" } });
    await deps.db.subscription.update({ where: { organizationId: org.id }, data: { planId: team.id } });
    // Port 9 on loopback refuses the connection: every test send fails at once.
    const { endpoint } = await asA.webhooks.createEndpoint({ url: "http://127.0.0.1:9/hook" });
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push((await asA.webhooks.sendTest({ endpointId: endpoint.id })).eventId);
    const newestFirst = [...sent].reverse();

    const first = await asA.webhooks.listMessages({ limit: 2 });
    expect(first.items.map((m) => m.id)).toEqual(newestFirst.slice(0, 2));
    const second = await asA.webhooks.listMessages({ limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.items.map((m) => m.id)).toEqual(newestFirst.slice(2));
    expect(second.nextCursor).toBeNull();

    expect((await asA.webhooks.listMessages({ status: "failed" })).items.map((m) => m.id)).toEqual(
      newestFirst,
    );
    expect((await asA.webhooks.listMessages({ status: "delivered" })).items).toEqual([]);
    expect((await asA.webhooks.listMessages({ status: "pending" })).items).toEqual([]);
    expect(await codeOf(asA.webhooks.getMessage({ eventId: "evt_missing" }))).toBe("NOT_FOUND");
  });
});

describe("maskEndpointUrl", () => {
  it("keeps scheme, host and port and hides path, query and credentials", () => {
    expect(maskEndpointUrl("https://hooks.slack.com/services/T/B/X")).toBe("https://hooks.slack.com/••••••");
    expect(maskEndpointUrl("https://u:p@example.com:8443/?token=1")).toBe("https://example.com:8443/••••••");
    expect(maskEndpointUrl("https://example.com/")).toBe("https://example.com/");
    expect(maskEndpointUrl("not a url")).toBe("••••••");
  });
});
