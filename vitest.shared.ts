import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { testHarnessEnv } from "./packages/config/src/test-env.ts";

const harness = testHarnessEnv();

/** Test databases: never the dev database, so a test run cannot clobber a running Breakwater. */
export const testEnv = {
  DATABASE_URL: harness.TEST_DATABASE_URL,
  REDIS_URL: harness.TEST_REDIS_URL,
  AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
  LOG_LEVEL: "silent",
  NODE_ENV: "test",
};

const clusterSetup = fileURLToPath(
  new URL("./packages/queue/src/testing/cluster-global-setup.ts", import.meta.url),
);

/**
 * Two projects per package: `unit` (pure, beside the code) and `int` (real Postgres and Redis); a
 * package whose integration suites touch Redis names them in `cluster`, and those run a second time
 * as `int-cluster`, every Redis client then a Cluster on a 3-master loopback Redis Cluster.
 */
export function packageConfig(opts: { cluster?: string[] } = {}) {
  const clusterProject = opts.cluster?.length
    ? [
        {
          test: {
            name: "int-cluster",
            include: opts.cluster,
            isolate: false,
            env: testEnv,
            globalSetup: [clusterSetup],
            testTimeout: 30_000,
            hookTimeout: 60_000,
            fileParallelism: false,
          },
        },
      ]
    : [];
  return defineConfig({
    test: {
      env: testEnv,
      projects: [
        {
          test: {
            name: "unit",
            include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
            exclude: ["**/*.int.test.ts", "**/node_modules/**"],
            env: testEnv,
            // Property tests run hundreds of cases; on a shared 2-core runner 5 s is a coin toss.
            testTimeout: 20_000,
          },
        },
        {
          test: {
            name: "int",
            include: ["src/**/*.int.test.ts", "test/**/*.int.test.ts"],
            // Files run one after another in one worker that keeps its module graph: re-importing
            // core, Prisma and its WebAssembly query compiler for every file took a third of the
            // stage's CPU (wire: 134.8 s → 72.3 s, 2m24s → 46 s of CPU). Each suite still makes
            // and closes its own clients, servers and data.
            isolate: false,
            env: testEnv,
            testTimeout: 30_000,
            hookTimeout: 30_000,
            fileParallelism: false,
          },
        },
        ...clusterProject,
      ],
    },
  });
}
