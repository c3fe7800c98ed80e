import { describe, expect, it } from "vitest";
import { getUsageOverviewInput, moneyString } from "./get-usage-overview";

describe("usage overview input and money", () => {
  it("keeps every digit of a Postgres numeric and trims trailing zeros to cents", () => {
    expect(moneyString("12.3400000000")).toBe("12.34");
    expect(moneyString("0.0000000000")).toBe("0.00");
    expect(moneyString("0.0000001500")).toBe("0.00000015");
    expect(moneyString("7")).toBe("7.00");
    expect(moneyString(null)).toBe("0.00");
  });

  it("takes inclusive UTC days, day granularity by default, and refuses bad ranges on their field", () => {
    expect(getUsageOverviewInput.parse({ from: "2026-11-01", to: "2026-11-30" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-30",
      granularity: "day",
    });
    const issues = (v: unknown) =>
      (getUsageOverviewInput.safeParse(v).error?.issues ?? []).map((i) => [i.path.join("."), i.message]);
    expect(issues({ from: "2026-11-30", to: "2026-11-01" })).toEqual([
      ["to", "The end date must be on or after the start date"],
    ]);
    expect(issues({ from: "2025-10-01", to: "2026-11-05" })).toEqual([
      ["from", "Choose a range of at most 400 days"],
    ]);
    expect(issues({ from: "2025-10-02", to: "2026-11-05" })).toEqual([]);
    // Hourly detail for at most 31 days.
    expect(issues({ from: "2026-11-01", to: "2026-12-01", granularity: "hour" })).toEqual([]);
    expect(
      issues({ from: "2026-11-01", to: "2026-12-02", granularity: "hour" }).map(([path]) => path),
    ).toEqual(["granularity"]);
    expect(issues({ from: "2026-11-31", to: "2026-12-01" })).toEqual([["from", "Not a valid date"]]);
  });
});
