import { parseConfig } from "@breakwater/config";
import { describe, expect, it } from "vitest";
import { JOB_NAMES, JOBS, parsePayload, queuePrefix } from "./catalogue";

describe("queue catalogue", () => {
  it("wraps each queue name in a hash tag after the deployment prefix", () => {
    const config = parseConfig({ QUEUE_PREFIX: "prod" });
    expect(queuePrefix(config, "webhook-deliver")).toBe("prod:{webhook-deliver}");
  });

  it("declares only the jobs that have consumers, each with a name equal to its key", () => {
    expect(JOB_NAMES.sort()).toEqual([
      "audit-retention",
      "breaker-prune",
      "breaker-stale-sweep",
      "event-partitions",
      "incident-evaluate",
      "incident-sweep",
      "price-reprice",
      "usage-retention",
      "usage-rollup",
      "webhook-deliver",
      "webhook-outbox-sweep",
    ]);
    for (const name of JOB_NAMES) expect(JOBS[name].name).toBe(name);
  });

  it("sweeps stale instances a few times per stale window, at most every 30 s", () => {
    expect(JOBS["breaker-stale-sweep"].schedule(parseConfig({ BREAKER_STALE_SECONDS: "180" })).every).toBe(
      30_000,
    );
    expect(JOBS["breaker-stale-sweep"].schedule(parseConfig({ BREAKER_STALE_SECONDS: "12" })).every).toBe(
      2_000,
    );
  });

  it("rolls usage up every USAGE_ROLLUP_EVERY_MS (15 s by default) and applies retention hourly", () => {
    expect(JOBS["usage-rollup"].schedule(parseConfig({})).every).toBe(15_000);
    expect(JOBS["usage-rollup"].schedule(parseConfig({ USAGE_ROLLUP_EVERY_MS: "3000" })).every).toBe(3_000);
    expect(JOBS["usage-retention"].schedule(parseConfig({})).every).toBe(3_600_000);
    expect(JOBS["event-partitions"].schedule(parseConfig({})).every).toBe(3_600_000);
    expect(() => parseConfig({ USAGE_ROLLUP_EVERY_MS: "120000" })).toThrow();
  });

  it("rejects payloads with unknown keys or malformed ids", () => {
    expect(() =>
      parsePayload("webhook-deliver", { eventId: "evt_0123456789abcdef01234567", x: 1 }),
    ).toThrow();
    expect(parsePayload("webhook-deliver", { eventId: "evt_0123456789abcdef01234567" }).eventId).toMatch(
      /^evt_/,
    );
  });
});
