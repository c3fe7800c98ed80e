import { describe, expect, it } from "vitest";
import {
  bucketLabel,
  formatClock,
  formatLatency,
  formatPercent,
  formatShare,
  formatUsd,
  isZeroDecimal,
  roundDecimal,
  sumDecimals,
  unpricedLabel,
} from "./format";

describe("formatUsd", () => {
  it("keeps small amounts visible instead of rounding them to $0.00", () => {
    expect(formatUsd("0.000123")).toBe("$0.000123");
    expect(formatUsd("0.0001234567")).toBe("$0.000123");
    expect(formatUsd("0.00045")).toBe("$0.00045");
    expect(formatUsd("0.0004500000")).toBe("$0.00045");
    expect(formatUsd("0.0000000001")).toBe("$0.0000000001");
    expect(formatUsd("0.009")).toBe("$0.009");
  });
  it("shows cents from a dollar up, grouped", () => {
    expect(formatUsd("1")).toBe("$1.00");
    expect(formatUsd("12.345")).toBe("$12.35");
    expect(formatUsd("1234567.004")).toBe("$1,234,567.00");
    expect(formatUsd("999.995")).toBe("$1,000.00");
  });
  it("rounds below a dollar to three significant digits, keeping at least cents", () => {
    expect(formatUsd("0.5")).toBe("$0.50");
    expect(formatUsd("0.12345")).toBe("$0.123");
    expect(formatUsd("0.9999")).toBe("$1.00");
    expect(formatUsd("0.0999")).toBe("$0.0999");
    expect(formatUsd("0.09999")).toBe("$0.10");
  });
  it("shows exact zero as $0.00 and negative amounts with a sign", () => {
    expect(formatUsd("0")).toBe("$0.00");
    expect(formatUsd("0.0000000000")).toBe("$0.00");
    expect(formatUsd("-2.5")).toBe("-$2.50");
  });
  it("leaves anything that is not a decimal as it is", () => {
    expect(formatUsd("n/a")).toBe("n/a");
  });
});

describe("decimal helpers", () => {
  it("rounds half away from zero on the digits", () => {
    expect(roundDecimal("0.125", 2)).toEqual({ negative: false, int: "0", frac: "13" });
    expect(roundDecimal("-0.004", 2)).toEqual({ negative: false, int: "0", frac: "00" });
    expect(roundDecimal("9.995", 2)).toEqual({ negative: false, int: "10", frac: "00" });
    expect(() => roundDecimal("1e-7", 2)).toThrow(RangeError);
  });
  it("sums exactly where floats drift", () => {
    expect(sumDecimals(["0.1", "0.2"])).toBe("0.3");
    expect(sumDecimals(["0.0000000001", "1.5", "-0.5"])).toBe("1.0000000001");
    expect(sumDecimals([])).toBe("0");
  });
  it("recognises zero", () => {
    expect(isZeroDecimal("0.000")).toBe(true);
    expect(isZeroDecimal("0.001")).toBe(false);
  });
});

describe("labels", () => {
  it("says unpriced in tokens, never $0", () => {
    expect(unpricedLabel(1234)).toBe("unpriced · 1,234 tokens");
    expect(unpricedLabel(1)).toBe("unpriced · 1 token");
  });
  it("formats shares, latencies, clocks and buckets", () => {
    expect(formatShare(1, 3)).toBe("33.3 %");
    expect(formatShare(2, 2)).toBe("100 %");
    expect(formatShare(9999, 10000)).toBe("99.9 %");
    expect(formatShare(0, 0)).toBe("—");
    expect(formatPercent(0)).toBe("0 %");
    expect(formatPercent(0.0024)).toBe("<0.1 %");
    expect(formatPercent(2.54)).toBe("2.5 %");
    expect(formatPercent(3)).toBe("3 %");
    expect(formatPercent(87.6)).toBe("88 %");
    expect(formatLatency(null)).toBe("—");
    expect(formatLatency(1234.4)).toBe("1,234 ms");
    expect(formatClock("2026-12-02T14:05:09.500Z")).toBe("14:05:09 UTC");
    // The hour after midnight is 00, as browsers render it: a server-side "24" broke hydration.
    expect(formatClock("2026-12-05T00:06:11Z")).toBe("00:06:11 UTC");
    expect(bucketLabel("2026-12-02T00:00:00.000Z", "day")).toBe("Dec 2");
    expect(bucketLabel("2026-12-02T07:00:00.000Z", "hour")).toBe("Dec 2 07:00");
  });
});
