import { describe, expect, it } from "vitest";
import { Dec } from "./decimal";

describe("Dec", () => {
  it("parses and prints plain decimals without exponent or trailing zeros", () => {
    expect(Dec.from("5.00").toString()).toBe("5");
    expect(Dec.from("0.0028").toString()).toBe("0.0028");
    expect(Dec.from("1e-7").toString()).toBe("0.0000001");
    expect(Dec.from(2.5).toString()).toBe("2.5");
    expect(Dec.from("-1.50").toString()).toBe("-1.5");
    expect(() => Dec.from("abc")).toThrow();
    expect(() => Dec.from(Number.NaN)).toThrow();
  });

  it("adds and multiplies exactly where floats drift", () => {
    // 0.1 + 0.2 is 0.30000000000000004 in binary floating point.
    expect(Dec.from("0.1").add(Dec.from("0.2")).toString()).toBe("0.3");
    expect(Dec.from("0.075").mulInt(3).toString()).toBe("0.225");
    expect(Dec.from("1.1").mul(Dec.from("1.75")).toString()).toBe("1.925");
    expect(Dec.from("30").mulInt(500).shift(6).toString()).toBe("0.015");
  });

  it("rounds up to nano-dollars and divides", () => {
    expect(Dec.from("0.0000000028").ceilTo(9)).toBe(3n);
    expect(Dec.from("0.000000002").ceilTo(9)).toBe(2n);
    expect(Dec.from("0").ceilTo(9)).toBe(0n);
    expect(Dec.from("1").divRound(Dec.from("3"), 4).toString()).toBe("0.3333");
    expect(Dec.from("2").divRound(Dec.from("3"), 4).toString()).toBe("0.6667");
    expect(Dec.from("1").divFloor(Dec.from("0.000045"))).toBe(22222n);
    expect(Dec.from("-1").divFloor(Dec.from("3"))).toBe(-1n);
    expect(Dec.from("3.5").cmp(Dec.from("3.50"))).toBe(0);
  });
});
