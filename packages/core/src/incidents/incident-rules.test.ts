import { describe, expect, it } from "vitest";
import {
  appendSample,
  incidentSeverity,
  MAX_INCIDENT_SAMPLES,
  meetsThreshold,
  newMilestones,
  thresholdInstances,
} from "./incident-rules";

describe("incident rules", () => {
  it("defaults to 1 instance with ≤ 2 live, else 25 % rounded up", () => {
    expect(thresholdInstances(1, null)).toBe(1);
    expect(thresholdInstances(2, null)).toBe(1);
    expect(thresholdInstances(3, null)).toBe(1);
    expect(thresholdInstances(4, null)).toBe(1);
    expect(thresholdInstances(5, null)).toBe(2);
    expect(thresholdInstances(40, null)).toBe(10);
    expect(thresholdInstances(41, null)).toBe(11);
  });

  it("uses the project's percentage, never below one instance", () => {
    expect(thresholdInstances(40, 50)).toBe(20);
    expect(thresholdInstances(40, 1)).toBe(1);
    expect(thresholdInstances(3, 100)).toBe(3);
    expect(thresholdInstances(10, 33)).toBe(4);
    expect(meetsThreshold(0, 0, null)).toBe(false);
    expect(meetsThreshold(0, 1, 1)).toBe(false);
    expect(meetsThreshold(9, 40, null)).toBe(false);
    expect(meetsThreshold(10, 40, null)).toBe(true);
  });

  it("announces each milestone once, in order", () => {
    expect(newMilestones(0.25, [])).toEqual([]);
    expect(newMilestones(0.5, [])).toEqual([50]);
    expect(newMilestones(1, [])).toEqual([50, 100]);
    expect(newMilestones(1, [50])).toEqual([100]);
    expect(newMilestones(1, [50, 100])).toEqual([]);
  });

  it("maps the share to a PagerDuty severity", () => {
    expect(incidentSeverity(0.25)).toBe("warning");
    expect(incidentSeverity(0.5)).toBe("error");
    expect(incidentSeverity(1)).toBe("critical");
  });

  it("keeps the sparkline bounded and skips unchanged points", () => {
    let s = appendSample([], { t: 0, affected: 1, live: 4 });
    s = appendSample(s, { t: 1, affected: 1, live: 4 });
    expect(s).toHaveLength(1);
    for (let i = 0; i < 1000; i++) s = appendSample(s, { t: i + 2, affected: i % 7, live: 40 });
    expect(s.length).toBeLessThanOrEqual(MAX_INCIDENT_SAMPLES);
    expect(s[s.length - 1]?.t).toBe(1001);
  });
});

describe("episodes under incidents", () => {
  it("puts each episode under the incident it overlaps, the rest apart", async () => {
    const { groupEpisodesByIncident } = await import("./incident-rules");
    const t = (m: number) => new Date(Date.UTC(2026, 10, 30, 12, m)).toISOString();
    const g = groupEpisodesByIncident(
      [
        { id: "inc_a", openedAt: t(10), resolvedAt: t(20) },
        { id: "inc_b", openedAt: t(40), resolvedAt: null },
      ],
      [
        { id: "ep1", openedAt: t(9), closedAt: t(12) },
        { id: "ep2", openedAt: t(25), closedAt: t(27) },
        { id: "ep3", openedAt: t(41), closedAt: null },
      ],
      Date.parse(t(50)),
    );
    expect(g.byIncident).toEqual({
      inc_a: [expect.objectContaining({ id: "ep1" })],
      inc_b: [expect.objectContaining({ id: "ep3" })],
    });
    expect(g.ungrouped.map((e) => e.id)).toEqual(["ep2"]);
  });
});
