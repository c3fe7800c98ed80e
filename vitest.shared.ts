import { defineConfig } from "vitest/config";

/** Test databases: never the dev database, so a test run cannot clobber a running Breakwater. */
export const testEnv = {
  DATABASE_URL: process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/breakwater_test",
  REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/1",
  AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
  LOG_LEVEL: "silent",
  NODE_ENV: "test",
};

/** Two projects per package: `unit` (pure, beside the code) and `int` (real Postgres and Redis). */
export function packageConfig() {
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
          },
        },
        {
          test: {
            name: "int",
            include: ["src/**/*.int.test.ts", "test/**/*.int.test.ts"],
            env: testEnv,
            testTimeout: 30_000,
            hookTimeout: 30_000,
            fileParallelism: false,
          },
        },
      ],
    },
  });
}
