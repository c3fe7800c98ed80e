import { describe, expect, it } from "vitest";
import {
  applyCountedChange,
  formatDuration,
  providerStatus,
  statusSummary,
  unprobedNote,
  uptimeBars,
} from "./fleet-status";

describe("fleet status", () => {
  it("Down beats Recovering beats Healthy; stale instances do not count", () => {
    expect(providerStatus({ healthy: 5, down: 2, recovering: 1, stale: 3 })).toBe("Down");
    expect(providerStatus({ healthy: 5, down: 0, recovering: 1, stale: 3 })).toBe("Recovering");
    expect(providerStatus({ healthy: 1, down: 0, recovering: 0, stale: 9 })).toBe("Healthy");
    expect(providerStatus({ healthy: 0, down: 0, recovering: 0, stale: 2 })).toBe("Unknown");
    expect(statusSummary({ healthy: 5, down: 2, recovering: 0, stale: 4 })).toBe("2 of 7 instances Down");
  });

  it("uptime weights Down 1.0 and Recovering 0.3, counting overlapping instances once", () => {
    const day0 = Date.parse("2026-11-29T00:00:00Z");
    const end = Date.parse("2026-11-30T12:00:00Z");
    const h = 3_600_000;
    const bars = uptimeBars(
      [
        { from: day0 + 1 * h, to: day0 + 3 * h, state: "open" }, // 2 h Down
        { from: day0 + 2 * h, to: day0 + 4 * h, state: "open" }, // overlaps: +1 h Down
        { from: day0 + 4 * h, to: day0 + 6 * h, state: "half_open" }, // 2 h Recovering
        { from: day0 + 23 * h, to: day0 + 26 * h, state: "open" }, // crosses midnight: 1 h + 2 h
      ],
      end,
      2,
    );
    expect(bars.map((b) => b.day)).toEqual(["2026-11-29", "2026-11-30"]);
    expect(bars[0]).toMatchObject({ downSeconds: 4 * 3600, recoveringSeconds: 2 * 3600 });
    expect(bars[0]?.uptime).toBeCloseTo(1 - (4 + 0.6) / 24, 6);
    // The current day counts only the hours observed so far (12 h).
    expect(bars[1]).toMatchObject({ downSeconds: 2 * 3600 });
    expect(bars[1]?.uptime).toBeCloseTo(1 - 2 / 12, 6);
  });
});

describe("durations and the unprobed note", () => {
  it("says how long in the largest sensible unit", () => {
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(12 * 60 + 30)).toBe("12 min");
    expect(formatDuration(2 * 3600)).toBe("2 h");
    expect(formatDuration(2 * 3600 + 30 * 60)).toBe("2 h 30 min");
    expect(formatDuration(30 * 3600)).toBe("30 h");
    expect(formatDuration(3 * 86400)).toBe("3 d");
    expect(unprobedNote(7200)).toBe("Down 2 h, fallback serving — breaker not re-probed");
  });
});

describe("applyCountedChange", () => {
  const cell = (healthy: number, down: number, recovering: number, stale: number, reported = true) => {
    const counts = { healthy, down, recovering, stale };
    return { ...counts, status: providerStatus(counts), summary: statusSummary(counts), reported };
  };
  const overview = () => ({
    generatedAt: "x",
    projects: [
      {
        id: "p1",
        name: "one",
        status: "Healthy" as const,
        cells: { openai: cell(2, 0, 0, 0), anthropic: cell(1, 0, 0, 1) },
      },
      {
        id: "p2",
        name: "two",
        status: "Unknown" as const,
        cells: { openai: cell(0, 0, 0, 0, false), anthropic: cell(0, 0, 0, 0, false) },
      },
    ],
    totals: { Healthy: 2, Down: 0, Recovering: 0, Unknown: 0 },
  });

  it("moves an instance between counts and recomputes the cell, its project and the totals", () => {
    const next = applyCountedChange(overview(), {
      projectId: "p1",
      provider: "openai",
      from: "closed",
      to: "open",
    });
    expect(next?.projects[0]?.cells.openai).toMatchObject({
      healthy: 1,
      down: 1,
      status: "Down",
      summary: "1 of 2 instances Down",
    });
    expect(next?.projects[0]?.status).toBe("Down");
    expect(next?.totals).toEqual({ Healthy: 1, Down: 1, Recovering: 0, Unknown: 0 });
    expect(next?.generatedAt).toBe("x");
  });

  it("counts a first report, a revived and an expired instance", () => {
    const first = applyCountedChange(overview(), {
      projectId: "p2",
      provider: "openai",
      from: null,
      to: "half_open",
    });
    expect(first?.projects[1]?.cells.openai).toMatchObject({
      recovering: 1,
      reported: true,
      status: "Recovering",
    });
    expect(first?.projects[1]?.status).toBe("Recovering");
    expect(first?.totals.Recovering).toBe(1);
    const revived = applyCountedChange(overview(), {
      projectId: "p1",
      provider: "anthropic",
      from: "stale",
      to: "closed",
    });
    expect(revived?.projects[0]?.cells.anthropic).toMatchObject({ healthy: 2, stale: 0 });
    const expired = applyCountedChange(overview(), {
      projectId: "p1",
      provider: "anthropic",
      from: "closed",
      to: "stale",
    });
    expect(expired?.projects[0]?.cells.anthropic).toMatchObject({ healthy: 0, stale: 2, status: "Unknown" });
    expect(expired?.totals).toEqual({ Healthy: 1, Down: 0, Recovering: 0, Unknown: 1 });
  });

  it("leaves what it cannot place to the refetch", () => {
    expect(
      applyCountedChange(overview(), { projectId: "p3", provider: "openai", from: null, to: "open" }),
    ).toBeNull();
    expect(
      applyCountedChange(overview(), { projectId: "p1", provider: "mistral", from: null, to: "open" }),
    ).toBeNull();
    // Nobody is counted Down in p1/openai, so a change from Down does not add up.
    expect(
      applyCountedChange(overview(), { projectId: "p1", provider: "openai", from: "open", to: "closed" }),
    ).toBeNull();
    expect(
      applyCountedChange(overview(), { projectId: "p2", provider: "openai", from: "closed", to: "open" }),
    ).toBeNull();
  });
});
