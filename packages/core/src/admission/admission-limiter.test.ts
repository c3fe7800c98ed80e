import { describe, expect, it } from "vitest";
import { createAdmissionLimiter } from "./admission-limiter";

describe("admission limiter (one replica)", () => {
  it("admits up to the rate within a second, refuses the rest with Retry-After 1, and resets next second", async () => {
    const limiter = createAdmissionLimiter({});
    const t0 = 1_800_000_000_000;
    const verdicts = Array.from({ length: 8 }, () => limiter.admit("proj_a", 5, t0 + 10));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(5);
    expect(verdicts[7]).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.admit("proj_b", 5, t0 + 10).ok).toBe(true); // per project
    expect(limiter.admit("proj_a", 5, t0 + 1000).ok).toBe(true); // next window
    expect(limiter.admit("proj_a", null, t0 + 10).ok).toBe(true); // unlimited
    await limiter.stop();
  });

  it("reports the minute and hour allowance for the rate-limit headers", async () => {
    const limiter = createAdmissionLimiter({});
    const t0 = 1_800_000_000_000;
    limiter.admit("proj_q", 2, t0);
    limiter.admit("proj_q", 2, t0 + 1);
    expect(limiter.quota("proj_q", 2, t0 + 2)).toEqual({
      limitMinute: 120,
      remainingMinute: 118,
      limitHour: 7200,
      remainingHour: 7198,
    });
    expect(limiter.quota("proj_q", null)).toBeNull();
    await limiter.stop();
  });
});

describe("admission limiter memory", () => {
  it("tracks only the projects active lately, however many have been seen", async () => {
    const limiter = createAdmissionLimiter({});
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 20_000; i++) {
      limiter.admit(`proj_${i}`, 100, t0 + (i % 1000));
      limiter.quota(`proj_${i}`, 100, t0 + (i % 1000));
    }
    expect(limiter.tracked()).toEqual({ windows: 20_000, tallies: 20_000 });
    // Three seconds on, the windows are over; the tallies still count toward this hour.
    limiter.prune(t0 + 3_000);
    expect(limiter.tracked()).toEqual({ windows: 0, tallies: 20_000 });
    // Next hour: a project that is still active keeps its entries, the others are gone.
    const later = t0 + 3_600_000;
    expect(limiter.admit("proj_7", 100, later).ok).toBe(true);
    limiter.prune(later);
    expect(limiter.tracked()).toEqual({ windows: 1, tallies: 1 });
    // The survivor's counts started over with its hour.
    expect(limiter.quota("proj_7", 100, later)?.remainingHour).toBe(100 * 3600 - 1);
    await limiter.stop();
  });
});
