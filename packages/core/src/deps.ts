import type { Config } from "@breakwater/config";
import { sharedDb } from "@breakwater/db";
import { pino } from "pino";
import type { Deps } from "./context";

/** Structured JSON logger; never logs keys or payload bodies (redacted paths as a safety net). */
export function createLogger(config: Config, name: string) {
  return pino({
    name,
    level: config.LOG_LEVEL,
    redact: ["apiKey", "*.apiKey", "authorization", "*.authorization", "headers.authorization", "secret"],
  });
}

/** The process-wide dependencies for core functions (one Prisma pool per process). */
export function createDeps(config: Config, name: string): Deps {
  return { db: sharedDb(config.DATABASE_URL), config, log: createLogger(config, name) };
}
