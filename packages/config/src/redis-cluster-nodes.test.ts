import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./index";

describe("REDIS_CLUSTER_NODES", () => {
  it("is unset by default (standalone Redis from REDIS_URL)", () => {
    expect(parseConfig({}).REDIS_CLUSTER_NODES).toBeUndefined();
  });

  it("parses host:port seeds, spaces and empty entries ignored, IPv6 in brackets", () => {
    expect(
      parseConfig({ REDIS_CLUSTER_NODES: "10.0.0.1:7000, redis-b.internal:7001,,[::1]:7002" })
        .REDIS_CLUSTER_NODES,
    ).toEqual([
      { host: "10.0.0.1", port: 7000 },
      { host: "redis-b.internal", port: 7001 },
      { host: "::1", port: 7002 },
    ]);
  });

  it.each(["127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "redis://127.0.0.1:7000", "a b:7000", ","])(
    "refuses %j naming the variable",
    (value) => {
      let err: unknown;
      try {
        parseConfig({ REDIS_CLUSTER_NODES: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe("REDIS_CLUSTER_NODES");
      expect((err as Error).message).toMatch(/^Invalid configuration: REDIS_CLUSTER_NODES must/);
    },
  );
});
