import { randomUUID } from "node:crypto";
import { rollUpUsage } from "@breakwater/core";
import type { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { fieldErrorsOf } from "../errors";
import { apiTestEnv, codeOf } from "../testing";

const { deps, auth, signUp, close } = apiTestEnv("api-usage-test");
afterAll(close);

const today = () => new Date().toISOString().slice(0, 10);

async function events(
  projectId: string,
  rows: { model: string; cost: string | null; latencyMs: number; tags?: object; hoursAgo?: number }[],
) {
  const now = Date.now();
  await deps.db.metadataEvent.createMany({
    data: rows.map((r, i) => ({
      projectId,
      callId: randomUUID(),
      timestamp: new Date(now - 1_000 - i * 10 - (r.hoursAgo ?? 0) * 3_600_000),
      sdkInstanceId: "sdk-1",
      model: r.model,
      provider: "openai",
      status: "success",
      inputTokens: 100,
      outputTokens: 10,
      latencyMs: r.latencyMs,
      isModelFallback: false,
      agentRunId: "run-1",
      costUsd: r.cost,
      priced: r.cost !== null,
      tags: r.tags,
    })),
  });
}

async function refusal(p: Promise<unknown>) {
  return p.then(
    () => null,
    (e: unknown) => e as TRPCError,
  );
}

describe("usage.overview", () => {
  it("serves a viewer the organization's and one project's usage; another tenant's project is NOT_FOUND", async () => {
    const owner = await signUp("Uma");
    const viewer = await signUp("Vera");
    const asOwner = await owner.caller();
    const org = await asOwner.organization.create({ name: "Usage Co" });
    const project = await asOwner.project.create({ name: "svc", limits: { daily: 5, monthly: 100 } });
    await auth.api.addMember({ body: { userId: viewer.userId, organizationId: org.id, role: "viewer" } });
    await events(project.id, [
      { model: "gpt-5.5", cost: "0.25", latencyMs: 100, tags: { team: "search" } },
      { model: "gpt-5.5", cost: "0.50", latencyMs: 200 },
      { model: "house-7b", cost: null, latencyMs: 300 },
    ]);
    await rollUpUsage(deps.db);

    const asViewer = await viewer.caller();
    const o = await asViewer.usage.overview({ from: today(), to: today() });
    expect(o.range).toEqual({
      from: today(),
      to: today(),
      start: `${today()}T00:00:00.000Z`,
      end: new Date(Date.parse(`${today()}T00:00:00Z`) + 86_400_000).toISOString(),
    });
    expect(o.rolledUpTo).not.toBeNull();
    expect(o.totals).toMatchObject({ calls: 3, unpricedCalls: 1, unpricedInputTokens: 100, costUsd: "0.75" });
    expect(o.byModel.find((m) => m.model === "house-7b")?.costUsd).toBeNull();
    expect(o.byProvider).toEqual([
      expect.objectContaining({ provider: "openai", calls: 3, costUsd: "0.75", unpricedCalls: 1 }),
    ]);
    expect(o.byTag).toEqual([
      {
        key: "team",
        value: "search",
        calls: 1,
        costUsd: "0.25",
        unpricedCalls: 0,
        inputTokens: 100,
        outputTokens: 10,
      },
    ]);
    expect(o.series).toHaveLength(1);
    expect(o.limits.map((l) => [l.period, l.limitUsd, l.spentUsd, l.percent])).toEqual([
      ["daily", "5.00", "0.75", 15],
      ["monthly", "100.00", "0.75", 0.8],
    ]);
    const hourly = await asViewer.usage.overview({
      projectId: project.id,
      from: today(),
      to: today(),
      granularity: "hour",
    });
    expect(hourly.series).toHaveLength(24);
    expect(hourly.totals.calls).toBe(3);

    const stranger = await signUp("Sam");
    const asStranger = await stranger.caller();
    await asStranger.organization.create({ name: "Elsewhere" });
    expect(
      await codeOf(asStranger.usage.overview({ projectId: project.id, from: today(), to: today() })),
    ).toBe("NOT_FOUND");
    // Their own organization has no usage at all.
    expect((await asStranger.usage.overview({ from: today(), to: today() })).totals.calls).toBe(0);
  });

  it("a rolling window covers the last N hours, not calendar days", async () => {
    const u = await signUp("Rolf");
    const asU = await u.caller();
    await asU.organization.create({ name: "Rolling" });
    const project = await asU.project.create({ name: "svc" });
    await events(project.id, [
      { model: "gpt-5.5", cost: "0.01", latencyMs: 100 },
      { model: "gpt-5.5", cost: "0.02", latencyMs: 100, hoursAgo: 22 },
      { model: "gpt-5.5", cost: "0.04", latencyMs: 100, hoursAgo: 25 },
      { model: "gpt-5.5", cost: "0.08", latencyMs: 100, hoursAgo: 47 },
    ]);
    await rollUpUsage(deps.db);

    const before = Date.now();
    const o = await asU.usage.overview({ projectId: project.id, lastHours: 24 });
    // 24 hourly buckets, the last one the current hour.
    expect(o.series).toHaveLength(24);
    const currentHour = Math.floor(before / 3_600_000) * 3_600_000;
    expect(o.range.end).toBe(new Date(currentHour + 3_600_000).toISOString());
    expect(o.range.start).toBe(new Date(currentHour - 23 * 3_600_000).toISOString());
    expect(o.series.at(-1)?.bucket).toBe(new Date(currentHour).toISOString());
    // Now and 22 h ago are in; 25 h and 47 h ago are not, whatever the calendar day.
    expect(o.totals).toMatchObject({ calls: 2, costUsd: "0.03" });
    const two = await asU.usage.overview({ projectId: project.id, lastHours: 48 });
    expect(two.totals).toMatchObject({ calls: 4, costUsd: "0.15" });
    expect(two.series).toHaveLength(48);

    const both = await refusal(asU.usage.overview({ lastHours: 24, from: today(), to: today() }));
    expect(fieldErrorsOf(both?.cause)).toEqual({
      from: "Give either lastHours or from and to",
      to: "Give either lastHours or from and to",
    });
    const tooLong = await refusal(asU.usage.overview({ lastHours: 10_000 }));
    expect(fieldErrorsOf(tooLong?.cause)).toEqual({ lastHours: "Choose at most 744 hours" });
    const none = await refusal(asU.usage.overview({}));
    expect(fieldErrorsOf(none?.cause)).toEqual({ from: "Required", to: "Required" });
  });

  it("refuses a bad range with field errors", async () => {
    const u = await signUp("Val");
    const asU = await u.caller();
    await asU.organization.create({ name: "Ranges" });
    const reversed = await refusal(asU.usage.overview({ from: "2026-12-02", to: "2026-12-01" }));
    expect(reversed?.code).toBe("BAD_REQUEST");
    expect(fieldErrorsOf(reversed?.cause)).toEqual({ to: "The end date must be on or after the start date" });
    const long = await refusal(asU.usage.overview({ from: "2025-01-01", to: "2026-12-01" }));
    expect(fieldErrorsOf(long?.cause)).toEqual({ from: "Choose a range of at most 400 days" });
    const hourly = await refusal(
      asU.usage.overview({ from: "2026-10-01", to: "2026-12-01", granularity: "hour" }),
    );
    expect(Object.keys(fieldErrorsOf(hourly?.cause) ?? {})).toEqual(["granularity"]);
    const bad = await refusal(asU.usage.overview({ from: "2026-02-30", to: "2026-03-01" }));
    expect(fieldErrorsOf(bad?.cause)).toEqual({ from: "Not a valid date" });
    expect(await codeOf(asU.usage.overview({ from: "yesterday", to: "2026-03-01" }))).toBe("BAD_REQUEST");
  });

  it("needs a session and an organization", async () => {
    const u = await signUp("Nora");
    expect(await codeOf((await u.caller()).usage.overview({ from: today(), to: today() }))).toBe(
      "PRECONDITION_FAILED",
    );
  });
});
