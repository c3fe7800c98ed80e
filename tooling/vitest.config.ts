import { defineConfig } from "vitest/config";
import { testEnv } from "../vitest.shared.ts";

// Like the other packages, with the CLI and launcher sources (cli/, scripts/) and the benches' pure
// parts (bench/) in scope too.
export default defineConfig({
  test: {
    env: testEnv,
    projects: [
      {
        test: {
          name: "unit",
          include: ["{src,cli,scripts,simulator,bench}/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          env: testEnv,
        },
      },
      {
        test: {
          name: "int",
          include: ["{src,cli,scripts,simulator,test}/**/*.int.test.ts"],
          // As in every package's int project (vitest.shared.ts): one module graph for all files.
          isolate: false,
          env: testEnv,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
