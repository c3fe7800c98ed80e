import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (tooling/ sits directly under it). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Local state of `npm start` (embedded Postgres, Redis files, demo key, generated secrets); gitignored. */
export const dataDir = path.join(repoRoot, ".data");
