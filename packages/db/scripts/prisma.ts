/**
 * Runs the Prisma CLI with no network: DATABASE_URL comes from packages/config (so the CLI sees the
 * same database as the app), and the native schema engine — which Prisma would download — is
 * replaced by schema-engine-shim.mjs, Prisma's own Wasm engine of the exact pinned version.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getConfig, processEnv } from "@breakwater/config";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");

/** Environment for a Prisma CLI child process. */
export function prismaEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...processEnv(),
    DATABASE_URL: databaseUrl,
    PRISMA_SCHEMA_ENGINE_BINARY: path.join(here, "schema-engine-shim.mjs"),
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    PRISMA_DISABLE_WARNINGS: "1",
  };
}

/** Runs `prisma <args>` against databaseUrl from the repository root; returns the exit code. */
export function runPrisma(args: string[], databaseUrl: string, quiet = false): number {
  const res = spawnSync(prismaBin, args, {
    cwd: root,
    env: prismaEnv(databaseUrl),
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    encoding: "utf8",
  });
  if (res.status !== 0 && quiet) {
    process.stderr.write(res.stdout ?? "");
    process.stderr.write(res.stderr ?? "");
  }
  return res.status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(runPrisma(process.argv.slice(2), getConfig().DATABASE_URL));
}
