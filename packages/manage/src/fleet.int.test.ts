import { createProject, newId, recordBreakerReport } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetResource, incidentResource, listOf } from "./schemas";
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
/** A project of t's with recorded incidents and no instances (the reports above would open their own). */
let incidentsProject: string;
const now = Date.now();
beforeAll(async () => {
  h = await startManageHarness();
  [t, other] = await Promise.all([createManageTenant(h), createManageTenant(h)]);
  const report = (provider: string, inst: string, state: "closed" | "open" | "half_open", agoS: number) =>
    recordBreakerReport(h.sys, {
      projectId: t.projectId,
      provider,
      sdkInstanceId: inst,
      state,
      failureCount: 1,
      successCount: 1,
      reportedAt: new Date(now - agoS * 1000),
    });
  await report("openai", "i1", "closed", 20);
  await report("openai", "i2", "open", 10);
  await report("openai", "i3", "half_open", 10);
  await report("openai", "i4", "open", 10);
  await report("anthropic", "i1", "closed", 10);
  // i4 went silent long ago: stale, counted apart and left out of the status.
  await h.db.breakerSnapshot.updateMany({
    where: { projectId: t.projectId, sdkInstanceId: "i4" },
    data: { receivedAt: new Date(now - 3_600_000) },
  });
  // Incidents: three resolved (one opened at the same instant as another) and one open.
  incidentsProject = (await createProject(h.sys, { organizationId: t.organizationId, name: "incidents" })).id;
  const incident = (status: "open" | "resolved", openedAgoS: number, provider = "openai") => {
    const openedAt = new Date(now - openedAgoS * 1000);
    return h.db.providerIncident.create({
      data: {
        id: newId("inc"),
        projectId: incidentsProject,
        organizationId: t.organizationId,
        provider,
        status,
        thresholdSince: openedAt,
        openedAt,
        lastDownAt: openedAt,
        resolvedAt: status === "resolved" ? new Date(openedAt.getTime() + 60_000) : null,
        affectedCount: 2,
        liveCount: 4,
        peakCount: 3,
        peakShare: 0.75,
      },
    });
  };
  await incident("resolved", 3 * 86_400);
  await incident("resolved", 2 * 86_400, "anthropic");
  await incident("resolved", 2 * 86_400);
  await incident("open", 600);
  // Past the default 30 days: only with days=90.
  await incident("resolved", 40 * 86_400);
});
afterAll(async () => {
  await h?.close();
});

describe("fleet: happy", () => {
  it("answers the project's providers with Healthy, Down, Recovering and stale counts, as the fleet page does", async () => {
    const r = await call(h, "GET", `/projects/${t.projectId}/fleet`, { key: t.read });
    expect(r.status).toBe(200);
    const fleet = shapeOf(fleetResource, r);
    expect(fleet.projectId).toBe(t.projectId);
    expect(fleet.status).toBe("Down");
    expect(fleet.providers.map((p) => p.provider)).toEqual(["anthropic", "openai"]);
    expect(fleet.providers[1]).toMatchObject({
      provider: "openai",
      status: "Down",
      summary: "1 of 3 instances Down",
      healthy: 1,
      down: 1,
      recovering: 1,
      stale: 1,
    });
    expect(fleet.providers[0]).toMatchObject({ status: "Healthy", healthy: 1, down: 0, stale: 0 });
  });

  it("a project nobody reported is Unknown with no providers", async () => {
    const fleet = shapeOf(
      fleetResource,
      await call(h, "GET", `/projects/${other.projectId}/fleet`, { key: other.read }),
    );
    expect(fleet).toMatchObject({ status: "Unknown", providers: [] });
  });

  it("lists incidents newest first, a page at a time, filtered by status and provider", async () => {
    const all = shapeOf(
      listOf(incidentResource),
      await call(h, "GET", `/projects/${incidentsProject}/incidents`, { key: t.read }),
    );
    expect(all.data).toHaveLength(4);
    expect(all.data[0]!.status).toBe("open");
    const opened = all.data.map((i) => Date.parse(i.openedAt));
    expect(opened).toEqual([...opened].sort((a, b) => b - a));

    const first = shapeOf(
      listOf(incidentResource),
      await call(h, "GET", `/projects/${incidentsProject}/incidents?limit=2`, { key: t.read }),
    );
    const second = shapeOf(
      listOf(incidentResource),
      await call(
        h,
        "GET",
        `/projects/${incidentsProject}/incidents?limit=2&starting_after=${first.data[1]!.id}`,
        {
          key: t.read,
        },
      ),
    );
    expect(first.has_more).toBe(true);
    expect(second.has_more).toBe(false);
    expect([...first.data, ...second.data].map((i) => i.id)).toEqual(all.data.map((i) => i.id));

    const resolved = shapeOf(
      listOf(incidentResource),
      await call(h, "GET", `/projects/${incidentsProject}/incidents?status=resolved`, { key: t.read }),
    );
    expect(resolved.data.map((i) => i.status)).toEqual(["resolved", "resolved", "resolved"]);
    const open = await call(h, "GET", `/projects/${incidentsProject}/incidents?status=open&provider=openai`, {
      key: t.read,
    });
    expect(shapeOf(listOf(incidentResource), open).data).toHaveLength(1);
    const older = await call(h, "GET", `/projects/${incidentsProject}/incidents?days=90`, { key: t.read });
    expect(shapeOf(listOf(incidentResource), older).data).toHaveLength(5);
  });
});

describe("fleet: error", () => {
  it("bad query parameters are 422 by parameter name; an unknown project 404", async () => {
    const p = problemOf(
      await call(h, "GET", `/projects/${incidentsProject}/incidents?status=closed&days=7&limit=0`, {
        key: t.read,
      }),
      422,
      "validation-failed",
    );
    expect(p.errors!.map((e) => e.parameter).sort()).toEqual(["days", "limit", "status"]);
    const cursor = problemOf(
      await call(h, "GET", `/projects/${incidentsProject}/incidents?starting_after=inc_nope`, {
        key: t.read,
      }),
      422,
      "validation-failed",
    );
    expect(cursor.errors).toEqual([{ parameter: "starting_after", detail: expect.any(String) }]);
    problemOf(await call(h, "GET", "/projects/proj_nope/fleet", { key: t.read }), 404, "not-found");
    problemOf(await call(h, "GET", "/projects/proj_nope/incidents", { key: t.read }), 404, "not-found");
    problemOf(
      await call(h, "POST", `/projects/${t.projectId}/fleet`, { key: t.write }),
      405,
      "method-not-allowed",
    );
  });
});

describe("fleet: security", () => {
  it("another organization's project is 404, never its fleet or incidents", async () => {
    problemOf(await call(h, "GET", `/projects/${t.projectId}/fleet`, { key: other.read }), 404, "not-found");
    problemOf(
      await call(h, "GET", `/projects/${incidentsProject}/incidents`, { key: other.write }),
      404,
      "not-found",
    );
  });

  it("SDK keys are 401 and operator keys 403", async () => {
    problemOf(await call(h, "GET", `/projects/${t.projectId}/fleet`, { key: t.sdkKey }), 401, "unauthorized");
    problemOf(
      await call(h, "GET", `/projects/${incidentsProject}/incidents`, { key: t.sdkKey }),
      401,
      "unauthorized",
    );
    const op = await createOperatorKey(h);
    problemOf(await call(h, "GET", `/projects/${t.projectId}/fleet`, { key: op.key }), 403, "forbidden");
  });
});
