import { describe, expect, it } from "vitest";
import { planLanes, SUITE_SECONDS } from "./test-lanes";

describe("planLanes", () => {
  it("puts every workspace in exactly one lane, heaviest first, lanes within one suite of each other", () => {
    const names = Object.keys(SUITE_SECONDS);
    const lanes = planLanes(names);
    expect(lanes).toHaveLength(2);
    expect(lanes.flat().sort()).toEqual([...names].sort());
    const total = (lane: string[]) => lane.reduce((s, n) => s + SUITE_SECONDS[n]!, 0);
    const [a, b] = lanes.map(total) as [number, number];
    expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(...Object.values(SUITE_SECONDS)));
    expect(lanes[0]![0]).toBe("@breakwater/wire");
    expect(lanes[1]![0]).toBe("@breakwater/core");
  });

  it("gives a workspace it has no time for a middling weight and still places it", () => {
    expect(planLanes(["a", "b", "c"], 2, { a: 100 })).toEqual([["a"], ["b", "c"]]);
  });

  it("keeps lanes empty rather than inventing work when there are fewer workspaces than lanes", () => {
    expect(planLanes(["only"], 3)).toEqual([["only"], [], []]);
  });
});
