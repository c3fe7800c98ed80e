import { packageConfig, testEnv } from "../../vitest.shared.ts";

const config = packageConfig();
// The same integration suites behind the dashboard's single port (apps/web/server.mjs →
// createDashboardServer), so it and the lean server stay byte-identical. The property suites
// exercise the handlers, not the transport, and run once (behind the lean server).
config.test?.projects?.push({
  test: {
    name: "int-dashboard",
    isolate: false,
    include: ["src/**/*.int.test.ts"],
    // The durability suite kills a lean server process of its own, and the process suites signal
    // processes of their own (the dashboard's port among them): nothing of the port to compare.
    exclude: [
      "src/**/*.process.int.test.ts",
      "src/**/*.property.int.test.ts",
      "src/**/*.cluster.int.test.ts",
      "src/**/*.durability.int.test.ts",
      "**/node_modules/**",
    ],
    env: { ...testEnv, WIRE_TEST_SERVER: "dashboard" },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: false,
  },
});

export default config;
