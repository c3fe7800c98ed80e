import { recordBreakerReport } from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { fieldErrorsOf } from "../errors";
import { apiTestEnv, codeOf } from "../testing";

const { deps, auth, signUp, close } = apiTestEnv("api-incidents-test");
afterAll(close);

async function fieldErrors(p: Promise<unknown>): Promise<Record<string, string>> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  expect((err as TRPCError).code).toBe("BAD_REQUEST");
  return fieldErrorsOf((err as TRPCError).cause) ?? {};
}

describe("incident procedures", () => {
  it("settings: defaults, per-field refusals that store nothing, viewers read but cannot write", async () => {
    const owner = await signUp("Ida");
    const viewer = await signUp("Vic");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Incidents" });
    const project = await asOwner.project.create({ name: "svc", limits: { monthly: 10 } });
    expect(await asOwner.fleet.incidentSettings({ projectId: project.id })).toEqual({
      projectId: project.id,
      thresholdPct: null,
      minDurationSeconds: 0,
      quietSeconds: 60,
    });
    const base = { projectId: project.id, thresholdPct: 40, minDurationSeconds: 30, quietSeconds: 120 };
    expect(
      await fieldErrors(asOwner.fleet.updateIncidentSettings({ ...base, thresholdPct: 0 })),
    ).toHaveProperty("thresholdPct");
    expect(
      await fieldErrors(asOwner.fleet.updateIncidentSettings({ ...base, thresholdPct: 101 })),
    ).toHaveProperty("thresholdPct");
    expect(
      await fieldErrors(asOwner.fleet.updateIncidentSettings({ ...base, minDurationSeconds: -1 })),
    ).toMatchObject({ minDurationSeconds: "The minimum duration cannot be negative" });
    expect(
      await fieldErrors(asOwner.fleet.updateIncidentSettings({ ...base, quietSeconds: -5 })),
    ).toMatchObject({ quietSeconds: "The quiet period cannot be negative" });
    expect((await asOwner.fleet.incidentSettings({ projectId: project.id })).quietSeconds).toBe(60);
    expect(await asOwner.fleet.updateIncidentSettings(base)).toEqual(base);

    await auth.api.addMember({ body: { userId: viewer.userId, organizationId: org.id, role: "viewer" } });
    const asViewer = await viewer.caller();
    expect(await asViewer.fleet.incidentSettings({ projectId: project.id })).toEqual(base);
    expect(await codeOf(asViewer.fleet.updateIncidentSettings({ ...base, quietSeconds: 5 }))).toBe(
      "FORBIDDEN",
    );
  });

  it("open incidents and history are the caller's organization's only", async () => {
    const a = await signUp("Ann");
    const b = await signUp("Ben");
    const asA = await a.caller();
    const asB = await b.caller();
    await asA.organization.create({ name: "A" });
    await asB.organization.create({ name: "B" });
    const project = await asA.project.create({ name: "svc", limits: { monthly: 10 } });
    await recordBreakerReport(deps, {
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: "i-1",
      state: "open",
      failureCount: 3,
      successCount: 0,
      reportedAt: new Date(),
    });
    const open = await asA.fleet.openIncidents();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      provider: "openai",
      projectId: project.id,
      affectedCount: 1,
      liveCount: 1,
    });
    expect((await asA.fleet.incidents({ days: 90 })).incidents.map((i) => i.id)).toEqual([open[0]!.id]);
    expect(await asB.fleet.openIncidents()).toEqual([]);
    expect((await asB.fleet.incidents({ days: 30 })).incidents).toEqual([]);
  });
});
