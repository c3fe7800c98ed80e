import { defineConfig } from "vitest/config";
import { testEnv } from "../../vitest.shared.ts";

// The app keeps code in app/, features/, lib/ and components/ (Next's layout), not src/.
const dirs = ["app", "features", "lib", "components"];

export default defineConfig({
  test: {
    env: testEnv,
    projects: [
      {
        // Component tests render TSX to markup: Next's tsconfig leaves JSX to Next ("preserve")
        // and resolves "@/" itself, so the unit project compiles one and resolves the other.
        oxc: { jsx: { runtime: "automatic" } },
        resolve: { tsconfigPaths: true },
        test: {
          name: "unit",
          include: dirs.map((d) => `${d}/**/*.test.{ts,tsx}`),
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          env: testEnv,
        },
      },
      {
        test: {
          name: "int",
          include: dirs.map((d) => `${d}/**/*.int.test.{ts,tsx}`),
          env: testEnv,
          testTimeout: 30_000,
        },
      },
    ],
  },
});
