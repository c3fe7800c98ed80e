import { recordBreakerReport } from "@breakwater/core";
import { afterAll, describe, expect, it } from "vitest";
import { apiTestEnv, codeOf } from "../testing";

const { deps, signUp, close } = apiTestEnv("api-webhooks-test");
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
    expect(log.items[0]).toMatchObject({
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
});
