import { describe, expect, it } from "vitest";
import { EndpointLanes } from "./endpoint-lanes";

describe("EndpointLanes", () => {
  it("a healthy endpoint gets perEndpoint lanes; a slow one backs off into one; slow ones share slowSlots", () => {
    let now = 0;
    const lanes = new EndpointLanes({ perEndpoint: 3, slowSlots: 2, slowAfterMs: 1_000, now: () => now });
    const a = [lanes.tryAcquire("a"), lanes.tryAcquire("a"), lanes.tryAcquire("a")];
    expect(a.every(Boolean)).toBe(true);
    expect(lanes.tryAcquire("a")).toBeNull(); // at its limit
    const b = lanes.tryAcquire("b"); // others unaffected
    expect(b).not.toBeNull();
    b!.release({ success: true, latencyMs: 30 });
    now = 1_500; // a's attempts are now running long: a is struggling
    expect(lanes.isStruggling("a")).toBe(true);
    a[0]!.release({ success: false, latencyMs: 1_500 });
    expect(lanes.tryAcquire("a")).toBeNull(); // one lane, still busy
    a[1]!.release({ success: false, latencyMs: 1_500 });
    a[2]!.release({ success: false, latencyMs: 1_500 });
    const one = lanes.tryAcquire("a");
    expect(one).not.toBeNull(); // failing: one lane
    expect(lanes.tryAcquire("a")).toBeNull();
    // Another failing endpoint takes the second slow slot; a third has to wait.
    const c = lanes.tryAcquire("c")!;
    c.release({ success: false, latencyMs: 10 });
    const d = lanes.tryAcquire("d")!;
    d.release({ success: false, latencyMs: 10 });
    const c2 = lanes.tryAcquire("c");
    expect(c2).not.toBeNull();
    expect(lanes.tryAcquire("d")).toBeNull(); // slowSlots (2) held by a and c
    expect(lanes.retryDelayMs("d")).toBeGreaterThanOrEqual(5_000);
    // A quick success brings an endpoint back to full width.
    one!.release({ success: true, latencyMs: 20 });
    expect(lanes.isStruggling("a")).toBe(false);
    expect([lanes.tryAcquire("a"), lanes.tryAcquire("a"), lanes.tryAcquire("a")].every(Boolean)).toBe(true);
    expect(lanes.retryDelayMs("a")).toBeLessThan(500);
  });
});
