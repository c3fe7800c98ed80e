import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format";

describe("formatDateTime", () => {
  it("formats in UTC on a 24-hour clock", () => {
    expect(formatDateTime("2026-12-04T14:05:09.500Z")).toBe("Dec 4, 14:05:09 UTC");
  });

  it("writes the hour after midnight as 00, as browsers do (a server-rendered 24 broke hydration)", () => {
    expect(formatDateTime("2026-12-05T00:06:11Z")).toBe("Dec 5, 00:06:11 UTC");
  });
});
