import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageResource } from "./schemas";
import {
  call,
  createManageTenant,
  type ManageHarness,
  type ManageTenant,
  problemOf,
  shapeOf,
  startManageHarness,
} from "./testing/harness";

let h: ManageHarness;
let t: ManageTenant;
let other: ManageTenant;
beforeAll(async () => {
  h = await startManageHarness();
  t = await createManageTenant(h);
  other = await createManageTenant(h);
});
afterAll(async () => {
  await h?.close();
});

describe("usage: happy", () => {
  it("a range of days, one point per day; a rolling window, one point per hour; the project's limits", async () => {
    const days = shapeOf(
      usageResource,
      await call(h, "GET", "/usage?from=2026-11-01&to=2026-11-07", { key: t.read }),
    );
    expect(days.range).toMatchObject({ from: "2026-11-01", to: "2026-11-07" });
    expect(days.series).toHaveLength(7);
    expect(days.totals).toMatchObject({ calls: 0, costUsd: "0.00" });

    const hours = shapeOf(
      usageResource,
      await call(h, "GET", `/usage?lastHours=24&granularity=hour&projectId=${t.projectId}`, { key: t.read }),
    );
    expect(hours.series).toHaveLength(24);
    expect(hours.limits.map((l) => [l.projectId, l.period, l.limitUsd])).toEqual([
      [t.projectId, "monthly", "50.00"],
    ]);
  });
});

describe("usage: error", () => {
  it("bad ranges are 422 naming the parameter", async () => {
    const swapped = problemOf(
      await call(h, "GET", "/usage?from=2026-11-07&to=2026-11-01", { key: t.read }),
      422,
      "validation-failed",
    );
    expect(swapped.errors!.map((e) => e.parameter)).toEqual(["to"]);
    const both = problemOf(
      await call(h, "GET", "/usage?lastHours=5&from=2026-11-01&to=2026-11-02", { key: t.read }),
      422,
      "validation-failed",
    );
    expect(both.errors!.map((e) => e.parameter)).toEqual(expect.arrayContaining(["from", "to"]));
    const words = problemOf(
      await call(h, "GET", "/usage?lastHours=many", { key: t.read }),
      422,
      "validation-failed",
    );
    expect(words.errors).toEqual([{ parameter: "lastHours", detail: expect.any(String) }]);
    problemOf(
      await call(h, "GET", "/usage?from=2026-02-30&to=2026-03-01", { key: t.read }),
      422,
      "validation-failed",
    );
  });
});

describe("usage: security", () => {
  it("another organization's project is 404; an SDK key 401", async () => {
    problemOf(
      await call(h, "GET", `/usage?lastHours=24&projectId=${other.projectId}`, { key: t.read }),
      404,
      "not-found",
    );
    problemOf(await call(h, "GET", "/usage?lastHours=24", { key: t.sdkKey }), 401, "unauthorized");
  });
});
