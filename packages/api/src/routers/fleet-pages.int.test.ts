import { recordBreakerReport } from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { fieldErrorsOf } from "../errors";
import { apiTestEnv, codeOf } from "../testing";

const { deps, auth, signUp, close } = apiTestEnv("api-fleet-pages-test");
afterAll(close);

describe("provider page procedures", () => {
  it("instances and failovers a page at a time, for viewers of the project's organization only", async () => {
    const owner = await signUp("Oda");
    const viewer = await signUp("Val");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Paged fleet" });
    const project = await asOwner.project.create({ name: "svc", limits: { monthly: 10 } });
    const report = (sdkInstanceId: string, state: "closed" | "open") =>
      recordBreakerReport(deps, {
        projectId: project.id,
        provider: "openai",
        sdkInstanceId,
        state,
        failureCount: state === "open" ? 3 : 0,
        successCount: 1,
        reportedAt: new Date(),
      });
    await report("web-1", "closed");
    await report("web-2", "open");
    await report("web-3", "closed");

    await auth.api.addMember({ body: { userId: viewer.userId, organizationId: org.id, role: "viewer" } });
    const asViewer = await viewer.caller();
    const input = { projectId: project.id, provider: "openai" };
    const first = await asViewer.fleet.providerInstances({ ...input, limit: 2 });
    expect(first.instances.map((i) => i.sdkInstanceId)).toEqual(["web-1", "web-2"]);
    const second = await asViewer.fleet.providerInstances({ ...input, limit: 2, cursor: first.nextCursor! });
    expect(second.instances.map((i) => i.sdkInstanceId)).toEqual(["web-3"]);
    expect(second.nextCursor).toBeNull();
    const down = await asViewer.fleet.providerInstances({ ...input, status: "Down" });
    expect(down.instances.map((i) => [i.sdkInstanceId, i.label])).toEqual([["web-2", "Down"]]);
    expect(await asViewer.fleet.failoverFeed(input)).toEqual({ items: [], nextCursor: null });

    // The summary no longer carries the lists; it says when the next live instance turns stale.
    const summary = await asViewer.fleet.provider(input);
    expect(summary).not.toHaveProperty("instances");
    expect(summary).not.toHaveProperty("failoverFeed");
    expect(Date.parse(summary.nextStaleAt ?? "")).toBeGreaterThan(Date.now());
    expect(summary.counts).toEqual({ healthy: 2, down: 1, recovering: 0, stale: 0 });

    // A refused page says why, as a field error, never a 500.
    const err = await asViewer.fleet
      .providerInstances({ ...input, status: "Down", cursor: first.nextCursor! })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("BAD_REQUEST");
    expect((err as TRPCError).message).toBe("This page link is not valid");
    expect(fieldErrorsOf((err as TRPCError).cause)).toEqual({ cursor: "This page link is not valid" });
    expect(await codeOf(asViewer.fleet.failoverFeed({ ...input, cursor: "garbage" }))).toBe("BAD_REQUEST");
    expect(await codeOf(asViewer.fleet.providerInstances({ ...input, limit: 201 }))).toBe("BAD_REQUEST");
    expect(await codeOf(asViewer.fleet.providerInstances({ ...input, status: "Gone" as "Down" }))).toBe(
      "BAD_REQUEST",
    );

    const stranger = await signUp("Sam");
    const asStranger = await stranger.caller();
    await asStranger.organization.create({ name: "Elsewhere" });
    expect(await codeOf(asStranger.fleet.providerInstances(input))).toBe("NOT_FOUND");
    expect(await codeOf(asStranger.fleet.failoverFeed(input))).toBe("NOT_FOUND");
  });
});
