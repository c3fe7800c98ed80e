import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./index";

describe("TRUST_PROXY", () => {
  it("is a number of trusted proxy hops: off by default, true meaning one", () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "" }).TRUST_PROXY).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
  });

  it("refuses anything else with one line naming the variable", () => {
    for (const bad of ["maybe", "-1", "11", "10.0.0.0/8"]) {
      expect(() => parseConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => parseConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY must be true, false or a number/);
    }
  });
});
