import { describe, expect, it } from "vitest";
import { currentWindowKeys, currentWindows, windowExpireAt, windowOf } from "./windows";

const at = (iso: string) => new Date(iso);

describe("budget windows", () => {
  it("keys UTC days, ISO weeks (Monday start) and months", () => {
    const w = currentWindows(at("2026-11-30T23:59:59.999Z"));
    expect(w.daily.key).toBe("d:2026-11-30");
    expect(w.weekly.key).toBe("w:2026-W49");
    expect(w.monthly.key).toBe("m:2026-11");
    expect(w.weekly.start.toISOString()).toBe("2026-11-30T00:00:00.000Z"); // a Monday
    expect(w.monthly.end.toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  it("starts a new window exactly at midnight UTC", () => {
    expect(windowOf("daily", at("2026-12-01T00:00:00.000Z")).key).toBe("d:2026-12-01");
    expect(windowOf("daily", at("2026-11-30T23:59:59.999Z")).key).toBe("d:2026-11-30");
    expect(windowOf("weekly", at("2026-11-29T23:59:59.999Z")).key).toBe("w:2026-W48"); // Sunday
  });

  it("uses the ISO week-year across year boundaries", () => {
    expect(windowOf("weekly", at("2027-01-01T12:00:00Z")).key).toBe("w:2026-W53"); // Friday
    expect(windowOf("weekly", at("2025-12-29T00:00:00Z")).key).toBe("w:2026-W01"); // Monday
    expect(windowOf("weekly", at("2021-01-03T00:00:00Z")).key).toBe("w:2020-W53"); // Sunday
    expect(windowOf("weekly", at("2024-12-30T08:00:00Z")).key).toBe("w:2025-W01");
  });

  it("contains the instant it was computed for", () => {
    for (const iso of ["2024-02-29T10:00:00Z", "2026-03-01T00:00:00Z", "2026-12-31T23:59:59Z"]) {
      for (const p of ["daily", "weekly", "monthly"] as const) {
        const w = windowOf(p, at(iso));
        expect(w.start.getTime()).toBeLessThanOrEqual(at(iso).getTime());
        expect(w.end.getTime()).toBeGreaterThan(at(iso).getTime());
      }
    }
  });

  it("lets counters outlive their window a little", () => {
    const d = windowOf("daily", at("2026-11-30T12:00:00Z"));
    expect(windowExpireAt(d)).toBeGreaterThan(d.end.getTime());
    expect(windowExpireAt(d) - d.end.getTime()).toBeLessThanOrEqual(3 * 86_400_000);
  });
});

describe("currentWindowKeys", () => {
  it("equals the keys of currentWindows at every instant, across midnights, week and year ends", () => {
    const instants = [
      "2026-11-30T00:00:00.000Z",
      "2026-11-30T23:59:59.999Z",
      "2026-12-01T00:00:00.000Z",
      "2026-12-31T23:59:59.999Z",
      "2027-01-01T00:00:00.000Z",
      "2027-01-03T23:59:59.999Z", // Sunday of ISO week 2026-W53
      "2027-01-04T00:00:00.000Z",
      "2028-02-29T12:00:00.000Z",
      "1970-01-01T00:00:00.000Z",
    ].map((iso) => Date.parse(iso));
    for (let i = 0; i < 2_000; i++) instants.push(Math.floor(Math.random() * 4_102_444_800_000));
    // Also back and forth, so a memoized day is never served for another day.
    for (const ms of [...instants, ...instants.slice().reverse()]) {
      const w = currentWindows(new Date(ms));
      expect(currentWindowKeys(ms), new Date(ms).toISOString()).toEqual({
        daily: w.daily.key,
        weekly: w.weekly.key,
        monthly: w.monthly.key,
      });
    }
  });
});
