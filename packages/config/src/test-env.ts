import { z } from "zod";

/**
 * The environment of the test harnesses (vitest, Playwright, test-database preparation), parsed
 * once: the test Postgres and Redis (never the development ones, so a test run cannot clobber a
 * running Breakwater), the e2e server's port, the Chromium binary, and whether this is CI. Loaded
 * by relative path from harness config files (and kept out of the package index, so production
 * bundles do not carry it); it imports nothing but zod.
 */
const TestEnvSchema = z.object({
  TEST_DATABASE_URL: z.url().default("postgresql://postgres@127.0.0.1:5432/breakwater_test"),
  TEST_REDIS_URL: z.url().default("redis://127.0.0.1:6379/1"),
  /**
   * The loopback Redis Cluster the `int-cluster` suites run on (`.ci/run` starts one on these
   * ports); when nothing healthy answers there, the suites start a private cluster of their own.
   */
  TEST_REDIS_CLUSTER_NODES: z.string().min(1).default("127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003"),
  /**
   * The Playwright suite's own database and Redis: a fresh migrated copy made by db:test-prepare
   * before any suite runs (default: the test database's name + `_e2e`) and Redis db 2 (emptied by
   * db:test-prepare). The e2e worker then never inherits the integration suites' events, webhook
   * deliveries and queued jobs — which it used to roll up and retry for the whole e2e run.
   */
  E2E_DATABASE_URL: z.url().optional(),
  E2E_REDIS_URL: z.url().default("redis://127.0.0.1:6379/2"),
  E2E_PORT: z.coerce.number().int().min(1).max(65_535).default(3100),
  /**
   * Added to the port ranges suites pick free ports from: `npm test` runs two lanes of integration
   * suites side by side and gives the second its own ranges (1000), so a port one lane has just
   * found free is never the one the other binds next.
   */
  TEST_PORT_OFFSET: z.coerce.number().int().min(0).max(50_000).default(0),
  CHROMIUM_PATH: z.string().min(1).default("/usr/bin/chromium"),
  /** Which server the SDK API's integration suites run behind: the lean one or the dashboard's port. */
  WIRE_TEST_SERVER: z.enum(["lean", "dashboard"]).default("lean"),
  CI: z
    .string()
    .optional()
    .transform((v) => v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false"),
});

export type TestEnv = Omit<z.infer<typeof TestEnvSchema>, "E2E_DATABASE_URL"> & { E2E_DATABASE_URL: string };

/** The harness settings from `env` (default: this process's environment); one line names a bad one. */
export function testHarnessEnv(env: Record<string, string | undefined> = process.env): TestEnv {
  // An empty variable counts as unset, as in parseConfig.
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = TestEnvSchema.safeParse(set);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`invalid test environment: ${issue.path.join(".")}: ${issue.message}`);
  }
  const e2eDatabase = new URL(parsed.data.TEST_DATABASE_URL);
  e2eDatabase.pathname = `${e2eDatabase.pathname}_e2e`;
  return { ...parsed.data, E2E_DATABASE_URL: parsed.data.E2E_DATABASE_URL ?? e2eDatabase.toString() };
}
