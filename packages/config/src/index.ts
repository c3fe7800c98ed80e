import { z } from "zod";
import { DEFAULT_DATABASE_URL, hasScheme, POSTGRES_SCHEMES, schemeMessage } from "./database-url";
import { ConfigError } from "./error";

export { DEFAULT_DATABASE_URL, databaseUrlFrom } from "./database-url";
export { ConfigError } from "./error";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/** A 256-bit key: 64 hex digits or base64 of 32 bytes. */
const KEY_32 = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43})$/;
const encryptionKey = z.string().trim().regex(KEY_32, "must be 32 bytes as 64 hex digits or base64");

const urlWithScheme = (schemes: readonly string[]) =>
  z.string().refine((v) => hasScheme(v, schemes), { message: schemeMessage(schemes) });

/** Every setting Breakwater reads, with defaults that work on a developer machine. */
export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: urlWithScheme(POSTGRES_SCHEMES).default(DEFAULT_DATABASE_URL),
  REDIS_URL: urlWithScheme(["redis", "rediss"]).default("redis://127.0.0.1:6379/0"),
  /**
   * Seed nodes of a Redis Cluster (`host:port,host:port,…`). Set, every process talks to the
   * cluster (ioredis Cluster) instead of REDIS_URL; REDIS_URL's user, password and TLS scheme still
   * apply to every node, its database number does not (a cluster has only database 0).
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .transform((v, ctx) => {
      const nodes: { host: string; port: number }[] = [];
      for (const raw of v.split(",")) {
        const entry = raw.trim();
        if (!entry) continue;
        const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(entry);
        const port = m ? Number(m[2]) : 0;
        if (!m || port < 1 || port > 65_535) {
          ctx.addIssue({
            code: "custom",
            message: `must be host:port,host:port,… (e.g. 10.0.0.1:7000,10.0.0.2:7000); "${entry.slice(0, 60)}" is not`,
          });
          return z.NEVER;
        }
        nodes.push({ host: m[1]!.replace(/^\[|\]$/g, ""), port });
      }
      if (nodes.length === 0) {
        ctx.addIssue({ code: "custom", message: "must list at least one host:port" });
        return z.NEVER;
      }
      return nodes;
    })
    .optional(),
  /** Where `npm start` looks for a local Postgres when DATABASE_URL is unset (else it embeds one). */
  LOCAL_DATABASE_URL: urlWithScheme(["postgres", "postgresql"]).default(
    "postgresql://postgres@127.0.0.1:5432/breakwater",
  ),
  /** Where `npm start` looks for a local Redis when REDIS_URL is unset (else it runs redis-server). */
  LOCAL_REDIS_URL: urlWithScheme(["redis", "rediss"]).default("redis://127.0.0.1:6379/0"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Port of the lean SDK API server (the same handlers as the Next routes, without Next). */
  SDK_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
  /** Open connections the lean SDK API server accepts at once; further ones are closed on arrival. */
  SDK_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
  /**
   * Processes the lean SDK API server runs on SDK_PORT (node:cluster: a primary accepts and hands
   * connections round-robin to its workers). Unset: the number of cores, at most 4 (each process
   * holds its own Postgres pools); `1`: one process, no primary.
   */
  SDK_API_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * The longest a server or the worker takes from SIGTERM/SIGINT to exiting: it stops accepting,
   * lets what is in flight finish (up to this minus 3 s, at least half of it), flushes and closes
   * its connections in the rest, and exits anyway when the time is up.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  /**
   * Port of the lean SDK API server's Prometheus `/metrics` listener. Unset: no metrics listener —
   * metrics are never served on SDK_PORT, the port SDK clients reach. Bound to METRICS_HOST.
   */
  SDK_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * Port of the dashboard's Prometheus `/metrics` listener (its own requests, process metrics and
   * the /api/v1 SDK metrics it serves). Unset: none. Bound to METRICS_HOST.
   */
  WEB_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Interface the metrics listeners bind to (loopback unless a scraper on another host needs them). */
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: urlWithScheme(["http", "https"]).default("http://localhost:3000"),
  /**
   * Where SDKs reach the SDK API (the lean server on SDK_PORT, or a load balancer in front of it):
   * the SOLWYN_API_URL the dashboard tells users to set. Unset: http://localhost:<SDK_PORT>.
   */
  SDK_PUBLIC_URL: urlWithScheme(["http", "https"]).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Encrypts secrets stored in Postgres (webhook signing secrets), AES-256-GCM. Required in
   * production; `npm start` generates one into .data/secrets-key.
   */
  SECRETS_ENCRYPTION_KEY: encryptionKey.optional(),
  /** Earlier SECRETS_ENCRYPTION_KEYs, comma-separated: still decrypt, never encrypt (key rotation). */
  SECRETS_ENCRYPTION_OLD_KEYS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .pipe(z.array(encryptionKey))
    .default([]),
  SVIX_API_KEY: z.string().min(1).optional(),
  SVIX_SERVER_URL: urlWithScheme(["http", "https"]).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BREAKER_STALE_SECONDS: z.coerce.number().int().min(10).default(180),
  /**
   * Snapshots of SDK instances silent longer than this many days are pruned by the worker (never
   * kept longer than the plan's retention_days): autoscaling and deploys mint new instance ids.
   */
  BREAKER_SNAPSHOT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** How often the worker re-evaluates unresolved provider incidents (resolves silent ones, catches lost jobs). */
  INCIDENT_SWEEP_EVERY_MS: z.coerce.number().int().min(500).max(60_000).default(5_000),
  /** How often the worker rolls newly received metadata events into the hourly usage rollups. */
  USAGE_ROLLUP_EVERY_MS: z.coerce.number().int().min(500).max(60_000).default(15_000),
  /** How often the worker deletes raw metadata events past each plan's retention_days. */
  USAGE_RETENTION_EVERY_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /** BullMQ key prefix; each queue's keys then share one Redis Cluster slot via a {queue} hash tag. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, "must be 1–32 letters, digits, _ or -")
    .default("bw"),
  /**
   * Webhook deliveries one worker process runs at once (each bounded by the 15 s receiver timeout).
   * Most of a delivery's time is spent waiting on a statement it shares with the others (see
   * core's delivery-statements), so more slots mean bigger batches; what one receiver sees is
   * bounded by WEBHOOK_ENDPOINT_CONCURRENCY.
   */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(128),
  /**
   * Attempts to one healthy endpoint a worker process runs at once (unset: half of
   * WEBHOOK_CONCURRENCY, at most 32 — what one receiver is asked to take in parallel). A slow or
   * failing endpoint gets one, and all of those together a quarter of WEBHOOK_CONCURRENCY. At most
   * 256: past that a receiver is being flooded, not served.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /** Requests one management API key (/api/manage/v1) may make per minute, across every replica. */
  MANAGE_API_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(600),
  RESERVATION_TTL_SECONDS: z.coerce.number().int().min(10).default(300),
  DEFAULT_OUTPUT_TOKEN_BOUND: z.coerce.number().int().min(0).default(1024),
  /**
   * How many reverse proxies in front of the dashboard append to X-Forwarded-For: `false`/`0`
   * (default) trusts no forwarded header and uses the socket's peer address; `true` = 1; `N` (up
   * to 10) takes the address N hops from the right of [X-Forwarded-For…, peer].
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|yes|no|[0-9]|10)$/, "must be true, false or a number of proxy hops (0–10)")
    .transform((v) => (v === "true" || v === "yes" ? 1 : v === "false" || v === "no" ? 0 : Number(v)))
    .default(0),
  /**
   * Let webhooks reach loopback, private, link-local, unique-local, multicast and unspecified
   * addresses (receivers on a private network; test suites). Off: such connections are refused.
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: bool.default(false),
  ALLOW_SIGNUP: bool.default(true),
});

export type Config = z.infer<typeof configSchema>;

/** Parses an env map into a typed Config; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "unset" so that `FOO= npm start` falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    throw new ConfigError(variable, issue.message);
  }
  const config = result.data;
  if (config.NODE_ENV === "production" && !config.AUTH_SECRET) {
    throw new ConfigError("AUTH_SECRET", "is required in production (at least 32 characters)");
  }
  // Metrics get a listener of their own: never the port clients (or browsers) reach.
  if (config.SDK_METRICS_PORT !== undefined && config.SDK_METRICS_PORT === config.SDK_PORT) {
    throw new ConfigError(
      "SDK_METRICS_PORT",
      "must differ from SDK_PORT (metrics are not served to SDK clients)",
    );
  }
  if (config.WEB_METRICS_PORT !== undefined && config.WEB_METRICS_PORT === config.PORT) {
    throw new ConfigError("WEB_METRICS_PORT", "must differ from PORT (metrics are not served to browsers)");
  }
  return config;
}

let cached: Config | undefined;

/** The process's config, parsed once from process.env. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * Parses the config for a process entry point; on a bad variable prints one line naming it
 * and exits 1, instead of a stack trace.
 */
export function loadConfigOrExit(): Config {
  try {
    return getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Of a shutdown bounded by SHUTDOWN_TIMEOUT_MS, how long what is in flight (requests, jobs) may
 * take: all but the last 3 s, which are left for flushing and closing connections, and never less
 * than half of it.
 */
export function drainBudgetMs(shutdownTimeoutMs: number): number {
  return Math.max(Math.floor(shutdownTimeoutMs / 2), shutdownTimeoutMs - 3_000);
}

/** The SDK base URL users should set as SOLWYN_API_URL (no trailing slash). */
export function sdkPublicUrl(config: Pick<Config, "SDK_PUBLIC_URL" | "SDK_PORT">): string {
  return (config.SDK_PUBLIC_URL ?? `http://localhost:${config.SDK_PORT}`).replace(/\/+$/, "");
}

/** The secret used to sign sessions; a fixed development value outside production. */
export function authSecret(config: Config): string {
  return config.AUTH_SECRET ?? "breakwater-development-secret-change-me-0000";
}

/** A fixed key for development and tests only; production refuses to run without its own. */
const DEVELOPMENT_SECRETS_KEY = "6272656b77617465722d646576656c6f706d656e742d6b65792d6368616e6765";

/**
 * The key that encrypts stored secrets, and the older ones that still decrypt. Throws (naming the
 * variable) in production when SECRETS_ENCRYPTION_KEY is unset: checked where secrets are used, so
 * processes that never touch one (a build, the SDK API server) do not need it.
 */
export function secretsKeys(config: Config): { current: string; old: string[] } {
  if (!config.SECRETS_ENCRYPTION_KEY && config.NODE_ENV === "production") {
    throw new ConfigError(
      "SECRETS_ENCRYPTION_KEY",
      "is required in production (32 bytes as 64 hex digits: openssl rand -hex 32)",
    );
  }
  return {
    current: config.SECRETS_ENCRYPTION_KEY ?? DEVELOPMENT_SECRETS_KEY,
    old: config.SECRETS_ENCRYPTION_OLD_KEYS,
  };
}

/** Raw environment access for tools that must pass env through to child processes. */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}
