import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import path from "node:path";
import { expect } from "@playwright/test";
import { testHarnessEnv } from "../../../packages/config/src/test-env";
import { PASSWORD } from "./helpers";

/**
 * The one way e2e specs run the admin CLI: as `npm run bw` does (tooling/cli/run.mjs, the bundled
 * CLI, rebuilt only when its sources changed), against the e2e database.
 */

const repoRoot = path.resolve(__dirname, "../../..");

/** Runs `bw <args>` and returns the process result, whatever its exit code. */
export function bwRun(...args: string[]): SpawnSyncReturns<string> {
  const harness = testHarnessEnv();
  return spawnSync(process.execPath, [path.join(repoRoot, "tooling", "cli", "run.mjs"), ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: harness.E2E_DATABASE_URL,
      REDIS_URL: harness.E2E_REDIS_URL,
      PUBLIC_URL: `http://127.0.0.1:${harness.E2E_PORT}`,
      LOG_LEVEL: "warn",
    },
    encoding: "utf8",
  });
}

/** Runs `bw <args> --json`, expects exit code 0 and returns the parsed output. */
export function bw(...args: string[]): Record<string, unknown> {
  const res = bwRun(...args, "--json");
  expect(res.status, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

/** Makes a password account with the installation's operator role, in no organization (`bw user create --operator`). */
export function createOperator(email: string, name: string): void {
  bw("user", "create", "--email", email, "--name", name, "--password", PASSWORD, "--operator");
}

/**
 * Runs `bw --url <dashboard> <args>` as a machine with only HTTP would: remote mode, the management
 * key in BREAKWATER_TOKEN, and a database URL that reaches nothing.
 */
export function bwRemote(url: string, token: string, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(
    process.execPath,
    [path.join(repoRoot, "tooling", "cli", "run.mjs"), "--url", url, ...args],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: "postgresql://nobody@127.0.0.1:9/nowhere",
        BREAKWATER_URL: undefined,
        BREAKWATER_TOKEN: token,
      },
      encoding: "utf8",
    },
  );
}
