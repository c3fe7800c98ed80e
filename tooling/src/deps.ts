import type { Config } from "@breakwater/config";
import type { Deps } from "@breakwater/core";
import { createDb } from "@breakwater/db";
import { pino } from "pino";

/**
 * Dependencies for command-line tools: a small private Prisma pool and a logger on stderr, so
 * stdout carries only the tool's own output (`--json` must stay parseable). Quieter than the
 * servers: info-level logs are noise in a terminal, so the default `info` becomes `warn`.
 */
export function createToolDeps(config: Config, name: string): Deps {
  const level = config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL;
  return {
    db: createDb(config.DATABASE_URL, { max: 2 }),
    config,
    log: pino({ name, level }, pino.destination(2)),
  };
}
