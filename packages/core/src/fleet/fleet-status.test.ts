import { describe, expect, it } from "vitest";
import { formatDuration, providerStatus, statusSummary, unprobedNote, uptimeBars } from "./fleet-status";

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
