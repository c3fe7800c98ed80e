import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { Ctx } from "../context";
import { seedProject, testDeps } from "../testing/fleet";
import { getProviderHealth } from "./get-provider-health";
import { listFailoverFeed } from "./list-failover-feed";
import { listProviderInstances, type ProviderInstanceFilter } from "./list-provider-instances";

const STALE_S = 180;
const deps = testDeps({ BREAKER_STALE_SECONDS: String(STALE_S) });
afterAll(() => deps.db.$disconnect());

const viewer = (organizationId: string): Ctx => ({
  ...deps,
  actor: { type: "user", userId: "u", isOperator: false },
  organizationId,
  role: "viewer",
});

// A fixed clock, so the stale boundary is exact: cutoff = now − 180 s.
const now = new Date(Date.UTC(2026, 11, 7, 12, 0, 0));
const cutoff = now.getTime() - STALE_S * 1000;

interface Seeded {
  id: string;
  state: "closed" | "open" | "half_open";
  /** received_at as Postgres text (microseconds allowed). */
  receivedAt: string;
  stale: boolean;
}

/** Inserts snapshots in one statement; received_at as text keeps microseconds a JS Date drops. */
async function insertSnapshots(projectId: string, provider: string, rows: Seeded[]) {
  await deps.db.$executeRaw`
    INSERT INTO breaker_snapshots (project_id, provider, sdk_instance_id, state, failure_count, success_count,
      reported_at, received_at, first_seen_at, state_since)
    SELECT ${projectId}, ${provider}, r.id, r.state::"CircuitState", 1, 2, r.at::timestamptz, r.at::timestamptz,
      r.at::timestamptz - interval '1 hour', r.at::timestamptz
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.state)}::text[],
      ${rows.map((r) => r.receivedAt)}::text[]) AS r(id, state, at)`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * 137 instances of openai: every state live and stale; ids of mixed case, digits and dashes (the
 * database's collation orders them, not JS); the stale boundary exactly, to the microsecond.
 */
function fleet(): Seeded[] {
  const states = ["closed", "closed", "closed", "open", "half_open"] as const;
  const rows: Seeded[] = [];
  for (let i = 0; i < 120; i++) {
    const state = states[i % states.length] ?? "closed";
    const stale = i % 4 === 0;
    // Live ones seen 0–170 s ago; stale ones 181 s to 2 h ago, several at the very same time.
    const at = stale ? cutoff - 1000 - (i % 3) * 3_600_000 : cutoff + 10_000 + i * 1000;
    const id = `${["web", "Web", "api", "worker-", "a"][i % 5]}-${(i * 7919) % 1000}-${i}`;
    rows.push({ id, state, receivedAt: iso(at), stale });
  }
  for (let i = 0; i < 15; i++) {
    rows.push({ id: `burst-${i}`, state: "open", receivedAt: iso(cutoff - 5000), stale: true });
  }
  // Exactly at the cutoff is live; a millisecond earlier is stale (as the overview counts them).
  rows.push({ id: "edge-live", state: "open", receivedAt: iso(cutoff), stale: false });
  rows.push({ id: "edge-stale", state: "open", receivedAt: iso(cutoff - 1), stale: true });
  // A few microseconds either side of the cutoff (a JS Date would round both onto it).
  rows.push({ id: "micro-live", state: "closed", receivedAt: "2026-12-07T11:57:00.000001Z", stale: false });
  rows.push({ id: "micro-stale", state: "closed", receivedAt: "2026-12-07T11:56:59.999999Z", stale: true });
  return rows;
}

async function pageThrough(ctx: Ctx, projectId: string, status: ProviderInstanceFilter, limit: number) {
  const seen: string[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 1000; n++) {
    const page = await listProviderInstances(ctx, {
      projectId,
      provider: "openai",
      status,
      limit,
      cursor,
      now,
    });
    pages.push(page.instances.length);
    seen.push(...page.instances.map((i) => i.sdkInstanceId));
    if (!page.nextCursor) return { seen, pages };
    cursor = page.nextCursor;
  }
  throw new Error("paging did not end");
}

describe("provider page: instances a page at a time", () => {
  it("pages through every instance once, per filter, in a stable order, with the stale boundary exact", async () => {
    const { org, project } = await seedProject(deps, "team");
    const rows = fleet();
    await insertSnapshots(project.id, "openai", rows);
    // Another provider of the same project and another project are never listed.
    await insertSnapshots(project.id, "anthropic", [
      { id: "web-1", state: "open", receivedAt: iso(cutoff + 1000), stale: false },
    ]);
    const other = await seedProject(deps, "team");
    await insertSnapshots(other.project.id, "openai", [
      { id: "zz-other", state: "open", receivedAt: iso(cutoff + 1000), stale: false },
    ]);
    const ctx = viewer(org.id);

    // The database's order of instance ids (its collation), to compare the pages with.
    const byId = (
      await deps.db.$queryRaw<{ id: string }[]>`
        SELECT sdk_instance_id AS id FROM breaker_snapshots
        WHERE project_id = ${project.id} AND provider = 'openai' ORDER BY sdk_instance_id`
    ).map((r) => r.id);
    expect(byId).toHaveLength(rows.length);

    const all = await pageThrough(ctx, project.id, "all", 10);
    expect(all.seen).toEqual(byId);
    expect(new Set(all.seen).size).toBe(rows.length);
    expect(all.pages.slice(0, -1).every((n) => n === 10)).toBe(true);

    const expected = (keep: (r: Seeded) => boolean) =>
      byId.filter((id) => keep(rows.find((r) => r.id === id)!));
    const live = (state: Seeded["state"]) => (r: Seeded) => !r.stale && r.state === state;
    expect((await pageThrough(ctx, project.id, "Healthy", 7)).seen).toEqual(expected(live("closed")));
    const down = await pageThrough(ctx, project.id, "Down", 7);
    expect(down.seen).toEqual(expected(live("open")));
    expect(down.seen).toContain("edge-live");
    expect(down.seen).not.toContain("edge-stale");
    expect((await pageThrough(ctx, project.id, "Recovering", 7)).seen).toEqual(expected(live("half_open")));

    // Stale: every stale instance once, one a page, so a page boundary falls between every two.
    const stale = await pageThrough(ctx, project.id, "Stale", 1);
    expect(stale.seen).toEqual(expected((r) => r.stale));
    expect(stale.seen).toContain("edge-stale");
    expect(stale.seen).toContain("micro-stale");
    expect(stale.seen).not.toContain("micro-live");
    const firstStale = await listProviderInstances(ctx, {
      projectId: project.id,
      provider: "openai",
      status: "Stale",
      limit: 200,
      now,
    });
    expect(firstStale.instances.every((i) => i.stale)).toBe(true);
    expect(firstStale.nextCursor).toBeNull();

    // Every row carries what the table shows.
    const one = await listProviderInstances(ctx, {
      projectId: project.id,
      provider: "openai",
      limit: 200,
      now,
    });
    const edge = one.instances.find((i) => i.sdkInstanceId === "edge-live");
    expect(edge).toMatchObject({
      state: "open",
      label: "Down",
      stale: false,
      failureCount: 1,
      successCount: 2,
      lastSeenAt: iso(cutoff),
      reportedAt: iso(cutoff),
      stateSince: iso(cutoff),
      firstSeenAt: iso(cutoff - 3_600_000),
      openEpisodeId: null,
      unprobed: false,
      lastFallbackAt: null,
    });
    expect(one.instances.find((i) => i.sdkInstanceId === "edge-stale")?.stale).toBe(true);
    expect(one.instances).toHaveLength(rows.length);
    expect(one.nextCursor).toBeNull();

    // The summary says when the next live instance turns stale: the one seen longest ago.
    const summary = await getProviderHealth(ctx, { projectId: project.id, provider: "openai", days: 1, now });
    expect(summary.nextStaleAt).toBe(iso(cutoff + STALE_S * 1000));
    expect(summary).not.toHaveProperty("instances");
    expect(summary).not.toHaveProperty("failoverFeed");
    const quiet = await seedProject(deps, "team");
    await insertSnapshots(quiet.project.id, "openai", [
      { id: "gone", state: "closed", receivedAt: iso(cutoff - 1), stale: true },
    ]);
    const none = await getProviderHealth(viewer(quiet.org.id), {
      projectId: quiet.project.id,
      provider: "openai",
      days: 1,
      now,
    });
    expect(none.nextStaleAt).toBeNull();
  });

  it("refuses another tenant's project, an archived one, and a cursor it did not make", async () => {
    const { org, project } = await seedProject(deps, "team");
    await insertSnapshots(project.id, "openai", [
      { id: "a", state: "closed", receivedAt: iso(cutoff + 1000), stale: false },
      { id: "b", state: "closed", receivedAt: iso(cutoff + 1000), stale: false },
    ]);
    const stranger = await seedProject(deps, "team");
    for (const read of [listProviderInstances, listFailoverFeed] as const) {
      await expect(
        read(viewer(stranger.org.id), { projectId: project.id, provider: "openai", now }),
      ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Project not found" });
      await expect(
        read(viewer(org.id), { projectId: "proj_000000000000000000000000", provider: "openai", now }),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
    }

    const first = await listProviderInstances(viewer(org.id), {
      projectId: project.id,
      provider: "openai",
      limit: 1,
      now,
    });
    expect(first.instances.map((i) => i.sdkInstanceId)).toEqual(["a"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    // A cursor of one filter is not a page of another; garbage is refused, never a 500.
    for (const [status, cursor] of [
      ["Healthy", first.nextCursor],
      ["all", "not-a-cursor"],
      ["all", Buffer.from("[1,2]").toString("base64url")],
      ["Stale", Buffer.from(JSON.stringify({ f: "Stale", id: 7 })).toString("base64url")],
    ] as const) {
      await expect(
        listProviderInstances(viewer(org.id), {
          projectId: project.id,
          provider: "openai",
          status,
          cursor: cursor ?? "",
          now,
        }),
      ).rejects.toMatchObject({ code: "INVALID", message: "This page link is not valid" });
    }
    for (const cursor of [
      "x",
      Buffer.from(JSON.stringify({ t: "2026-12-07T11:00:00.000000Z", id: "99999999999999999999" })).toString(
        "base64url",
      ),
      Buffer.from(JSON.stringify({ t: "yesterday", id: "1" })).toString("base64url"),
    ]) {
      await expect(
        listFailoverFeed(viewer(org.id), { projectId: project.id, provider: "openai", cursor, now }),
      ).rejects.toMatchObject({ code: "INVALID" });
    }
    await expect(
      listProviderInstances(viewer(org.id), { projectId: project.id, provider: "openai", limit: 201 }),
    ).rejects.toThrow();

    await deps.db.project.update({ where: { id: project.id }, data: { archivedAt: new Date() } });
    await expect(
      listProviderInstances(viewer(org.id), { projectId: project.id, provider: "openai", now }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("flags a long Down as not re-probed from the fallback calls of the page's instances", async () => {
    const { org, project } = await seedProject(deps, "team");
    const twoHoursAgo = iso(now.getTime() - 7_200_000);
    await deps.db.$executeRaw`
      INSERT INTO breaker_snapshots (project_id, provider, sdk_instance_id, state, failure_count, success_count,
        reported_at, received_at, first_seen_at, state_since)
      VALUES (${project.id}, 'openai', 'b1', 'open', 3, 0, ${now}, ${now}, ${now}, ${twoHoursAgo}::timestamptz),
        (${project.id}, 'openai', 'b2', 'open', 3, 0, ${now}, ${now}, ${now}, ${twoHoursAgo}::timestamptz),
        (${project.id}, 'openai', 'b3', 'open', 3, 0, ${now}, ${now}, ${now}, ${iso(now.getTime() - 10_000)}::timestamptz)`;
    const servedAt = new Date(now.getTime() - 30_000);
    await deps.db.metadataEvent.createMany({
      data: [
        fallback(project.id, "b1", "openai", "anthropic", servedAt),
        fallback(project.id, "b3", "openai", "anthropic", servedAt),
        // Served more than 15 min ago: not "fallback serving".
        fallback(project.id, "b2", "openai", "anthropic", new Date(now.getTime() - 16 * 60_000)),
      ],
    });
    const page = await listProviderInstances(viewer(org.id), {
      projectId: project.id,
      provider: "openai",
      now,
    });
    expect(page.instances.map((i) => [i.sdkInstanceId, i.unprobed, i.lastFallbackAt])).toEqual([
      ["b1", true, servedAt.toISOString()],
      ["b2", false, null],
      // Down for 10 s only: an outage being probed, not a breaker nobody re-probed.
      ["b3", false, servedAt.toISOString()],
    ]);
    // The second page's instance is looked up on its own page.
    const second = await listProviderInstances(viewer(org.id), {
      projectId: project.id,
      provider: "openai",
      limit: 2,
      cursor: (
        await listProviderInstances(viewer(org.id), {
          projectId: project.id,
          provider: "openai",
          limit: 2,
          now,
        })
      ).nextCursor!,
      now,
    });
    expect(second.instances.map((i) => [i.sdkInstanceId, i.lastFallbackAt])).toEqual([
      ["b3", servedAt.toISOString()],
    ]);
  });
});

/** A call requested of `requested` that `served` answered (a provider fallback). */
function fallback(projectId: string, inst: string, requested: string, served: string, at: Date) {
  return {
    projectId,
    callId: randomUUID(),
    attemptIndex: 1,
    timestamp: at,
    sdkInstanceId: inst,
    model: served === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o",
    provider: served,
    status: "success",
    inputTokens: 100,
    outputTokens: 20,
    latencyMs: 850,
    isModelFallback: false,
    isProviderFallback: true,
    requestedProvider: requested,
    requestedModel: "gpt-4o",
    failoverReason: "circuit_open",
    agentRunId: `_auto-${inst}`,
    priced: false,
  };
}

describe("provider page: the failover feed a page at a time", () => {
  it("pages newest first by (timestamp, id), each failover once, with today's filters", async () => {
    const { org, project } = await seedProject(deps, "team");
    const at = (agoMs: number) => new Date(now.getTime() - agoMs);
    const shown: { inst: string; at: Date }[] = [];
    const data = [];
    for (let i = 0; i < 23; i++) {
      // Three calls per instant (distinct instances): the id breaks the tie.
      const when = at(60_000 * Math.floor(i / 3) + 1000);
      const inst = `i-${i}`;
      const kind = i % 3;
      data.push(
        kind === 0
          ? fallback(project.id, inst, "openai", "anthropic", when) // a fallback stepped in for openai
          : kind === 1
            ? fallback(project.id, inst, "anthropic", "openai", when) // openai served for another
            : {
                ...fallback(project.id, inst, "openai", "openai", when),
                isProviderFallback: false,
                isModelFallback: true, // a model fallback within openai
                requestedModel: "gpt-4.1",
              },
      );
      shown.push({ inst, at: when });
    }
    // Not in the feed: older than 24 h, a plain call, another provider's failover, another project.
    const other = await seedProject(deps, "team");
    data.push(
      fallback(project.id, "old", "openai", "anthropic", at(86_400_000 + 1000)),
      { ...fallback(project.id, "plain", "openai", "openai", at(5000)), isProviderFallback: false },
      fallback(project.id, "elsewhere", "google", "anthropic", at(5000)),
      fallback(other.project.id, "i-0", "openai", "anthropic", at(5000)),
    );
    await deps.db.metadataEvent.createMany({ data });
    // The newest two calls: within one millisecond, microseconds apart, the later one stored first
    // (the smaller id), so only the timestamp's microseconds put it first.
    for (const [inst, ts] of [
      ["micro-2", "2026-12-07T11:59:59.500900Z"],
      ["micro-1", "2026-12-07T11:59:59.500100Z"],
    ] as const) {
      await deps.db.$executeRaw`
        INSERT INTO metadata_events (project_id, call_id, attempt_index, "timestamp", sdk_instance_id, model,
          provider, status, input_tokens, output_tokens, latency_ms, is_model_fallback, is_provider_fallback,
          requested_provider, requested_model, failover_reason, agent_run_id, priced)
        VALUES (${project.id}, ${randomUUID()}::uuid, 1, ${ts}::timestamptz, ${inst}, 'claude-sonnet-4-5',
          'anthropic', 'success', 1, 1, 10, false, true, 'openai', 'gpt-4o', 'circuit_open', 'r', false)`;
      shown.push({ inst, at: new Date(ts) });
    }
    // Two calls at one instant whose ids differ in digit count: ordered as numbers (10^18 first),
    // never as text ("9…" before "1…").
    for (const [inst, id] of [
      ["id-9e17", "900000000000000000"],
      ["id-1e18", "1000000000000000000"],
    ] as const) {
      await deps.db.$executeRaw`
        INSERT INTO metadata_events (id, project_id, call_id, attempt_index, "timestamp", sdk_instance_id, model,
          provider, status, input_tokens, output_tokens, latency_ms, is_model_fallback, is_provider_fallback,
          requested_provider, requested_model, failover_reason, agent_run_id, priced)
        VALUES (${id}::bigint, ${project.id}, ${randomUUID()}::uuid, 1, ${at(30 * 60_000)}, ${inst},
          'claude-sonnet-4-5', 'anthropic', 'success', 1, 1, 10, false, true, 'openai', 'gpt-4o', 'circuit_open', 'r', false)`;
      shown.push({ inst, at: at(30 * 60_000) });
    }

    const ctx = viewer(org.id);
    const seen: { id: string; inst: string; at: string }[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 100; n++) {
      const page = await listFailoverFeed(ctx, {
        projectId: project.id,
        provider: "openai",
        limit: 4,
        cursor,
        now,
      });
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items.map((e) => ({ id: e.id, inst: e.sdkInstanceId, at: e.timestamp })));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(shown.length);
    expect(new Set(seen.map((e) => e.id)).size).toBe(shown.length);
    expect(seen.map((e) => e.inst).sort()).toEqual(shown.map((e) => e.inst).sort());
    // Newest first to the microsecond; within one instant, the larger id first.
    expect(seen.slice(0, 2).map((e) => e.inst)).toEqual(["micro-2", "micro-1"]);
    for (let k = 3; k < seen.length; k++) {
      const a = seen[k - 1]!;
      const b = seen[k]!;
      expect(Date.parse(a.at) > Date.parse(b.at) || (a.at === b.at && BigInt(a.id) > BigInt(b.id))).toBe(
        true,
      );
    }
    // A page boundary between the two: the cursor keeps the microseconds, so neither is lost.
    const one = await listFailoverFeed(ctx, { projectId: project.id, provider: "openai", limit: 1, now });
    const two = await listFailoverFeed(ctx, {
      projectId: project.id,
      provider: "openai",
      limit: 1,
      cursor: one.nextCursor!,
      now,
    });
    expect([...one.items, ...two.items].map((e) => e.sdkInstanceId)).toEqual(["micro-2", "micro-1"]);
    const tied = seen.filter((e) => e.inst.startsWith("id-"));
    expect(tied.map((e) => [e.inst, e.id])).toEqual([
      ["id-1e18", "1000000000000000000"],
      ["id-9e17", "900000000000000000"],
    ]);
    expect(seen.indexOf(tied[1]!)).toBe(seen.indexOf(tied[0]!) + 1);

    const first = await listFailoverFeed(ctx, { projectId: project.id, provider: "openai", limit: 50, now });
    expect(first.nextCursor).toBeNull();
    expect(first.items.find((e) => e.sdkInstanceId === "i-0")).toEqual({
      id: expect.any(String),
      timestamp: at(1000).toISOString(),
      sdkInstanceId: "i-0",
      requestedProvider: "openai",
      requestedModel: "gpt-4o",
      servedProvider: "anthropic",
      servedModel: "claude-sonnet-4-5",
      reason: "circuit_open",
      errorClass: null,
      latencyMs: 850,
      status: "success",
      providerFallback: true,
    });
    expect(first.items.find((e) => e.sdkInstanceId === "i-2")).toMatchObject({
      providerFallback: false,
      requestedModel: "gpt-4.1",
      servedProvider: "openai",
    });
    const empty = await listFailoverFeed(ctx, { projectId: project.id, provider: "mistral", now });
    expect(empty).toEqual({ items: [], nextCursor: null });
  });
});
