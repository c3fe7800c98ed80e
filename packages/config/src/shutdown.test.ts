import { describe, expect, it } from "vitest";
import { ConfigError, drainBudgetMs, parseConfig } from "./index";

describe("shutdown and SDK API workers", () => {
  it("bound a shutdown at 10 s by default, leaving the last 3 s for flushing", () => {
    const c = parseConfig({});
    expect(c.SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(drainBudgetMs(c.SHUTDOWN_TIMEOUT_MS)).toBe(7_000);
    // Short bounds keep half for what is in flight.
    expect(drainBudgetMs(4_000)).toBe(2_000);
    expect(parseConfig({ SHUTDOWN_TIMEOUT_MS: "30000" }).SHUTDOWN_TIMEOUT_MS).toBe(30_000);
  });

  it("leaves SDK_API_WORKERS unset (one per core, decided by the server) unless given", () => {
    expect(parseConfig({}).SDK_API_WORKERS).toBeUndefined();
    expect(parseConfig({ SDK_API_WORKERS: "1" }).SDK_API_WORKERS).toBe(1);
    expect(parseConfig({ SDK_API_WORKERS: "8" }).SDK_API_WORKERS).toBe(8);
  });

  it("refuses bad values naming the variable", () => {
    for (const [variable, bad] of [
      ["SDK_API_WORKERS", "0"],
      ["SDK_API_WORKERS", "two"],
      ["SDK_API_WORKERS", "65"],
      ["SHUTDOWN_TIMEOUT_MS", "500"],
      ["SHUTDOWN_TIMEOUT_MS", "1.5e3x"],
    ] as const) {
      expect(() => parseConfig({ [variable]: bad })).toThrow(ConfigError);
      expect(() => parseConfig({ [variable]: bad })).toThrow(
        new RegExp(`^Invalid configuration: ${variable} `),
      );
    }
  });
});
