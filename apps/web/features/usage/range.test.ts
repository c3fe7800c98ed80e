import { describe, expect, it } from "vitest";
import {
  addDays,
  customRangeError,
  describeRange,
  describeWindow,
  isYmd,
  overviewInput,
  paramsGetter,
  parseRange,
  rangeSearch,
  spanDays,
} from "./range";

const now = new Date("2026-12-02T14:05:09Z");
const params = (q: string) => new URLSearchParams(q);

describe("parseRange", () => {
  it("defaults to the last 7 days by day", () => {
    expect(parseRange(params(""), now)).toEqual({
      key: "7d",
      from: "2026-11-26",
      to: "2026-12-02",
      granularity: "day",
    });
    expect(parseRange(params("range=bogus"), now).key).toBe("7d");
    expect(parseRange(params("range=toString"), now).key).toBe("7d");
  });
  it("reads the presets, the 24 h one a rolling window by hour", () => {
    expect(parseRange(params("range=24h"), now)).toEqual({
      key: "24h",
      from: "2026-12-01",
      to: "2026-12-02",
      granularity: "hour",
      lastHours: 24,
    });
    expect(parseRange(params("range=30d"), now).from).toBe("2026-11-03");
    expect(parseRange(params("range=90d"), now).from).toBe("2026-09-04");
  });
  it("reads a custom range, by hour when it spans two days or fewer", () => {
    expect(parseRange(params("range=custom&from=2026-10-01&to=2026-10-31"), now)).toEqual({
      key: "custom",
      from: "2026-10-01",
      to: "2026-10-31",
      granularity: "day",
    });
    expect(parseRange(params("range=custom&from=2026-10-01&to=2026-10-02"), now).granularity).toBe("hour");
  });
  it("falls back to the default and says why when the custom range is unusable", () => {
    const cases: [string, string][] = [
      ["range=custom&from=2026-10-31&to=2026-10-01", "The start date is after the end date."],
      ["range=custom&from=2026-02-30&to=2026-03-01", "Pick both dates."],
      ["range=custom&to=2026-03-01", "Pick both dates."],
      ["range=custom&from=2027-01-01&to=2027-01-02", "The range starts in the future."],
      ["range=custom&from=2024-01-01&to=2026-01-01", "Pick at most 366 days."],
    ];
    for (const [q, why] of cases) {
      const r = parseRange(params(q), now);
      expect(r.key).toBe("7d");
      expect(r.invalid).toBe(why);
    }
  });
});

describe("date helpers", () => {
  it("validates, adds and counts calendar days", () => {
    expect(isYmd("2028-02-29")).toBe(true);
    expect(isYmd("2026-02-29")).toBe(false);
    expect(isYmd("2026-1-01")).toBe(false);
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(spanDays("2026-12-01", "2026-12-01")).toBe(1);
    expect(spanDays("2026-01-01", "2026-12-31")).toBe(365);
    expect(customRangeError("2026-01-01", "2027-01-01", "2027-06-01")).toBeNull();
  });
  it("describes a range in words", () => {
    expect(describeRange({ from: "2026-11-26", to: "2026-12-02" })).toBe("Nov 26 – Dec 2, 2026 (UTC)");
    expect(describeRange({ from: "2025-12-30", to: "2026-01-02" })).toBe("Dec 30, 2025 – Jan 2, 2026 (UTC)");
    expect(describeRange({ from: "2026-12-02", to: "2026-12-02" })).toBe("Dec 2, 2026 (UTC)");
  });
});

describe("rangeSearch", () => {
  it("keeps other params, drops the default and writes custom dates", () => {
    expect(rangeSearch(params("range=30d&view=model"), { key: "7d" })).toBe("view=model");
    expect(rangeSearch(params("view=model"), { key: "90d" })).toBe("view=model&range=90d");
    expect(rangeSearch(params("range=custom&from=2026-01-01&to=2026-01-02"), { key: "24h" })).toBe(
      "range=24h",
    );
    expect(rangeSearch(params(""), { key: "custom", from: "2026-10-01", to: "2026-10-31" })).toBe(
      "range=custom&from=2026-10-01&to=2026-10-31",
    );
  });
});

describe("paramsGetter", () => {
  it("reads a Next.js searchParams object like URLSearchParams", () => {
    const get = paramsGetter({ range: ["30d", "7d"], from: "2026-01-01", to: undefined });
    expect(get.get("range")).toBe("30d");
    expect(get.get("from")).toBe("2026-01-01");
    expect(get.get("to")).toBeNull();
    expect(parseRange(get, now).key).toBe("30d");
  });
});

describe("describeWindow", () => {
  it("says the exact hours of a rolling window", () => {
    expect(describeWindow({ start: "2026-12-01T10:00:00.000Z", end: "2026-12-02T10:00:00.000Z" })).toBe(
      "Dec 1, 10:00 – Dec 2, 10:00 (UTC)",
    );
  });
});

describe("overviewInput", () => {
  it("asks usage.overview for the URL's range, scoped to a project when given", () => {
    // The last 24 hours, not yesterday and today: asked as a window, whatever the time of day.
    expect(overviewInput(params("range=24h"), "proj_1", now).input).toEqual({
      projectId: "proj_1",
      lastHours: 24,
      granularity: "hour",
    });
    expect(overviewInput(params("range=24h"), undefined, new Date("2026-12-02T23:59:59Z")).input).toEqual(
      overviewInput(params("range=24h"), undefined, new Date("2026-12-03T00:00:01Z")).input,
    );
    expect(overviewInput(params(""), undefined, now).input).toEqual({
      from: "2026-11-26",
      to: "2026-12-02",
      granularity: "day",
    });
  });
});
