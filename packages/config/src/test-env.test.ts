import { describe, expect, it } from "vitest";
import { testHarnessEnv } from "./test-env";

describe("testHarnessEnv", () => {
  it("defaults to the test database, Redis db 1, the cluster on 7001–7003, port 3100, the system Chromium and the lean SDK server", () => {
    expect(testHarnessEnv({})).toEqual({
      TEST_DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/breakwater_test",
      TEST_REDIS_URL: "redis://127.0.0.1:6379/1",
      TEST_REDIS_CLUSTER_NODES: "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003",
      E2E_DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/breakwater_test_e2e",
      E2E_REDIS_URL: "redis://127.0.0.1:6379/2",
      E2E_PORT: 3100,
      TEST_PORT_OFFSET: 0,
      CHROMIUM_PATH: "/usr/bin/chromium",
      WIRE_TEST_SERVER: "lean",
      CI: false,
    });
    expect(testHarnessEnv({ WIRE_TEST_SERVER: "dashboard" }).WIRE_TEST_SERVER).toBe("dashboard");
    expect(testHarnessEnv({ TEST_PORT_OFFSET: "1000" }).TEST_PORT_OFFSET).toBe(1000);
    expect(() => testHarnessEnv({ WIRE_TEST_SERVER: "next" })).toThrow(/WIRE_TEST_SERVER/);
  });

  it("names the e2e database after the test database unless told, and takes an e2e Redis", () => {
    expect(
      testHarnessEnv({ TEST_DATABASE_URL: "postgresql://u@db:5433/ci_tests?sslmode=disable" })
        .E2E_DATABASE_URL,
    ).toBe("postgresql://u@db:5433/ci_tests_e2e?sslmode=disable");
    const env = testHarnessEnv({
      E2E_DATABASE_URL: "postgresql://u@db/browser",
      E2E_REDIS_URL: "redis://127.0.0.1:6379/5",
    });
    expect(env).toMatchObject({
      E2E_DATABASE_URL: "postgresql://u@db/browser",
      E2E_REDIS_URL: "redis://127.0.0.1:6379/5",
    });
    expect(() => testHarnessEnv({ E2E_REDIS_URL: "not a url" })).toThrow(/E2E_REDIS_URL/);
  });

  it("takes overrides and reads CI as a flag", () => {
    const env = testHarnessEnv({ TEST_REDIS_URL: "redis://127.0.0.1:6380/2", E2E_PORT: "3199", CI: "true" });
    expect(env).toMatchObject({ TEST_REDIS_URL: "redis://127.0.0.1:6380/2", E2E_PORT: 3199, CI: true });
    expect(testHarnessEnv({ CI: "false" }).CI).toBe(false);
    expect(testHarnessEnv({ E2E_PORT: "", CHROMIUM_PATH: "", TEST_DATABASE_URL: "" })).toMatchObject({
      E2E_PORT: 3100,
      CHROMIUM_PATH: "/usr/bin/chromium",
    }); // empty counts as unset
  });

  it("refuses a bad value with one line naming it", () => {
    expect(() => testHarnessEnv({ E2E_PORT: "http" })).toThrow(/^invalid test environment: E2E_PORT: /);
    expect(() => testHarnessEnv({ TEST_DATABASE_URL: "not a url" })).toThrow(/TEST_DATABASE_URL/);
  });
});
