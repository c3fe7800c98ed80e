import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./index";

describe("metrics listeners", () => {
  it("are off unless a port is set, and bind to loopback by default", () => {
    const c = parseConfig({});
    expect(c.SDK_METRICS_PORT).toBeUndefined();
    expect(c.WEB_METRICS_PORT).toBeUndefined();
    expect(c.METRICS_HOST).toBe("127.0.0.1");
    const set = parseConfig({ SDK_METRICS_PORT: "9464", WEB_METRICS_PORT: "9465", METRICS_HOST: "0.0.0.0" });
    expect(set.SDK_METRICS_PORT).toBe(9464);
    expect(set.WEB_METRICS_PORT).toBe(9465);
    expect(set.METRICS_HOST).toBe("0.0.0.0");
  });

  it("refuses a bad port with an error naming the variable", () => {
    for (const variable of ["SDK_METRICS_PORT", "WEB_METRICS_PORT"]) {
      for (const bad of ["0", "65536", "abc", "9464.5"]) {
        expect(() => parseConfig({ [variable]: bad })).toThrow(ConfigError);
        expect(() => parseConfig({ [variable]: bad })).toThrow(
          new RegExp(`^Invalid configuration: ${variable} `),
        );
      }
    }
  });

  it("refuses the port clients reach", () => {
    expect(() => parseConfig({ SDK_PORT: "3001", SDK_METRICS_PORT: "3001" })).toThrow(
      /SDK_METRICS_PORT must differ from SDK_PORT/,
    );
    expect(() => parseConfig({ SDK_METRICS_PORT: "3001" })).toThrow(/SDK_METRICS_PORT must differ/);
    expect(() => parseConfig({ WEB_METRICS_PORT: "3000" })).toThrow(/WEB_METRICS_PORT must differ from PORT/);
  });
});
