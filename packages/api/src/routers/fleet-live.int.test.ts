import { parseConfig, processEnv } from "@breakwater/config";
import { FleetLiveHub, publishFleetChanges } from "@breakwater/core";
import { createRedisClient } from "@breakwater/queue";
import { afterAll, describe, expect, it } from "vitest";
import { createContext } from "../context";
import { createCaller } from "../root";
import { apiTestEnv } from "../testing";
import type { FleetLiveMessage } from "./fleet";

const { deps, auth, signUp, close } = apiTestEnv("api-fleet-live-test");
const config = parseConfig(processEnv());
const hub = new FleetLiveHub({ redis: config, log: deps.log });
const publisher = { ...deps, redis: createRedisClient(config, "publisher") };
afterAll(async () => {
  await hub.close();
  publisher.redis.disconnect();
  await close();
});

describe("fleet.live", () => {
  it("streams every change of a long-lived subscription with one abort listener, and ends on abort", async () => {
    const owner = await signUp("Liv");
    const asOwner = await owner.caller();
    await asOwner.organization.create({ name: "Live fleet" });
    const project = await asOwner.project.create({ name: "svc", limits: { monthly: 10 } });

    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    const abort = new AbortController();
    try {
      const caller = createCaller(
        await createContext({ deps, auth, headers: owner.headers, fleetLive: hub }),
        {
          signal: abort.signal,
        },
      );
      const stream = (await caller.fleet.live()) as AsyncIterable<FleetLiveMessage>;
      const it = stream[Symbol.asyncIterator]();
      expect((await it.next()).value).toEqual({ type: "ready" });

      // One change at a time, each awaited: the stream waits between every two (30 waits).
      const instances = Array.from({ length: 30 }, (_, i) => `inst-${i}`);
      for (const sdkInstanceId of instances) {
        await publishFleetChanges(publisher, [
          { projectId: project.id, provider: "openai", sdkInstanceId, state: "open", kind: "transition" },
        ]);
        const next = await it.next();
        expect(next.value).toMatchObject({ type: "change", sdkInstanceId, projectId: project.id });
      }
      // Node warns past 10 listeners on one AbortSignal: one listener per wait did at the 11th.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.includes("MaxListenersExceededWarning"))).toEqual([]);

      const ended = it.next();
      abort.abort();
      expect(
        await ended.then(
          (r) => r.done,
          () => true,
        ),
      ).toBe(true);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
