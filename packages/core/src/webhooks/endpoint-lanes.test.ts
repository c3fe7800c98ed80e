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

describe("EndpointLanes.acquire", () => {
  it("waits in line for a healthy endpoint's lane, urgent messages first and past the limit", async () => {
    const lanes = new EndpointLanes({ perEndpoint: 2, slowSlots: 1, maxWaiting: 2, urgentExtra: 1 });
    const held = [await lanes.acquire("a"), await lanes.acquire("a")];
    expect(held.every(Boolean)).toBe(true);
    // An urgent message runs at once, past the limit, by one.
    const urgent = await lanes.acquire("a", { urgent: true });
    expect(urgent).not.toBeNull();
    const w1 = lanes.acquire("a");
    const w2 = lanes.acquire("a");
    // The line holds two; a third is sent away at once (put back, no slot held).
    expect(await lanes.acquire("a")).toBeNull();
    // An urgent one over its extra lane waits too, but ahead of the line: the first lane freed is its.
    const u2 = lanes.acquire("a", { urgent: true });
    urgent!.release({ success: true, latencyMs: 5 });
    const first = await u2;
    expect(first).not.toBeNull();
    held[0]!.release({ success: true, latencyMs: 5 });
    first!.release({ success: true, latencyMs: 5 });
    const second = await w1;
    expect(second).not.toBeNull();
    held[1]!.release({ success: true, latencyMs: 5 });
    expect(await w2).not.toBeNull();
  });

  it("sends the line away when the endpoint starts struggling or the wait runs out", async () => {
    let now = 0;
    const lanes = new EndpointLanes({
      perEndpoint: 1,
      slowSlots: 1,
      maxWaiting: 5,
      slowAfterMs: 1_000,
      waitMs: 60_000,
      now: () => now,
    });
    const running = await lanes.acquire("a");
    const waiting = lanes.acquire("a");
    now = 1_500; // the running attempt is now slow: the endpoint struggles
    expect(await waiting).toBeNull();
    running!.release({ success: false, latencyMs: 1_500 });
    // Struggling: no waiting at all.
    const one = await lanes.acquire("a");
    expect(one).not.toBeNull();
    expect(await lanes.acquire("a")).toBeNull();
    one!.release({ success: true, latencyMs: 10 });

    const short = new EndpointLanes({ perEndpoint: 1, slowSlots: 1, maxWaiting: 5, waitMs: 60 });
    const busy = await short.acquire("b");
    expect(await short.acquire("b")).toBeNull(); // waited 60 ms, nothing freed
    busy!.release({ success: true, latencyMs: 5 });
  });
});
