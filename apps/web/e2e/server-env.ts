import type { TestEnv } from "../../../packages/config/src/test-env";

/**
 * The environment every server of the e2e suite runs with — the dashboard's port, the worker and
 * the lean SDK API server a spec starts — so they share the e2e database, Redis and secrets.
 */
export function e2eServerEnv(harness: TestEnv): Record<string, string> {
  const baseURL = `http://127.0.0.1:${harness.E2E_PORT}`;
  return {
    DATABASE_URL: harness.E2E_DATABASE_URL,
    REDIS_URL: harness.E2E_REDIS_URL,
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456",
    SECRETS_ENCRYPTION_KEY: "e2e0000000000000000000000000000000000000000000000000000000000001",
    // The webhook spec's receiver listens on 127.0.0.1, which the SSRF guard refuses by default.
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    PUBLIC_URL: baseURL,
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    BREAKER_STALE_SECONDS: "10",
  };
}
