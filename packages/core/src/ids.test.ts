import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("is the prefix, 12 hex of the millisecond and 12 random hex", () => {
    const now = Date.UTC(2026, 11, 4, 12, 0, 0, 123);
    const id = newId("res", now);
    expect(id).toMatch(/^res_[0-9a-f]{24}$/);
    expect(id.slice(4, 16)).toBe(now.toString(16).padStart(12, "0"));
  });

  it("never repeats within one millisecond, across many refills of the random pool", () => {
    const now = Date.now();
    const ids = new Set<string>();
    for (let i = 0; i < 5_000; i++) ids.add(newId("res", now));
    expect(ids.size).toBe(5_000);
    for (const id of ids) expect(id).toMatch(/^res_[0-9a-f]{24}$/);
  });

  it("sorts by time: a later millisecond's ids sort after an earlier one's", () => {
    const a = newId("evt", 1_700_000_000_000);
    const b = newId("evt", 1_700_000_000_001);
    const c = newId("evt", 1_700_000_000_000);
    expect(a < b && c < b).toBe(true);
    expect(c.slice(0, 16)).toBe(a.slice(0, 16));
  });
});
