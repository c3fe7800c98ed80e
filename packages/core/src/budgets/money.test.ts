import { describe, expect, it } from "vitest";
import { nanosToDecimalString, nanosToUsd, usdToNanos } from "./money";

describe("money", () => {
  it("converts decimal USD to nano-dollars exactly", () => {
    expect(usdToNanos("0")).toBe(0n);
    expect(usdToNanos("100")).toBe(100_000_000_000n);
    expect(usdToNanos("0.065")).toBe(65_000_000n);
    expect(usdToNanos("1234567.1234567890")).toBe(1_234_567_123_456_789n);
    expect(usdToNanos(0.05)).toBe(50_000_000n);
    expect(usdToNanos("-2.5")).toBe(-2_500_000_000n);
  });

  it("rounds half away from zero at the tenth decimal", () => {
    expect(usdToNanos("0.0000000014")).toBe(1n);
    expect(usdToNanos("0.0000000015")).toBe(2n);
    expect(usdToNanos("-0.0000000015")).toBe(-2n);
  });

  it("refuses what is not a decimal", () => {
    expect(() => usdToNanos("1e")).toThrow(RangeError);
    expect(() => usdToNanos(Number.NaN)).toThrow(RangeError);
  });

  it("converts back to finite USD numbers and decimal strings", () => {
    expect(nanosToUsd(65_000_000n)).toBe(0.065);
    expect(nanosToUsd(100_000_000_000n)).toBe(100);
    expect(nanosToUsd(0n)).toBe(0);
    expect(nanosToDecimalString(1_500_000_001n)).toBe("1.500000001");
    expect(nanosToDecimalString(-5n)).toBe("-0.000000005");
  });
});

describe("nanosToUsd of a number", () => {
  it("equals the bigint conversion for every safe integer", () => {
    const edges = [0, 1, -1, 999_999_999, 1e9, -1e9, 1e9 + 1, 9e15 - 1, -(9e15 - 1), Number.MAX_SAFE_INTEGER];
    const samples = [...edges];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(Math.random() * 16);
      const n = Math.floor(Math.random() * magnitude) * (Math.random() < 0.2 ? -1 : 1);
      samples.push(n, n - (n % 1e9), n - (n % 1e9) - 1);
    }
    for (const n of samples) {
      if (!Number.isSafeInteger(n)) continue;
      expect(Object.is(nanosToUsd(n), nanosToUsd(BigInt(n))), `${n}`).toBe(true);
    }
    expect(nanosToUsd(31_720_000)).toBe(0.03172);
    expect(nanosToUsd(-5)).toBe(-0.000000005);
  });
});

describe("usdToNanos with exponent notation", () => {
  it("reads Decimal.js exponent strings exactly", () => {
    expect(usdToNanos("1e-7")).toBe(100n);
    expect(usdToNanos("2.5e-9")).toBe(3n);
    expect(usdToNanos("1.5e3")).toBe(1_500_000_000_000n);
    expect(usdToNanos("-4e-9")).toBe(-4n);
    expect(usdToNanos({ toString: () => "1e-10" })).toBe(0n);
  });
});
