#!/usr/bin/env node
// Starts the lean SDK API server: the production build when it exists (`npm run build -w
// @breakwater/wire`), otherwise the TypeScript source through tsx.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SDK_API_NODE_FLAGS } from "./node-flags.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = join(root, "dist", "sdk-api.mjs");
let args;
if (existsSync(built)) {
  args = [...SDK_API_NODE_FLAGS, "--enable-source-maps", built];
} else {
  const require = createRequire(import.meta.url);
  args = [
    join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs"),
    join(root, "src", "main.ts"),
  ];
}
const child = spawn(process.execPath, args, { stdio: "inherit" });
// SIGHUP too: it is the rolling restart of a cluster of workers (SDK_API_WORKERS > 1).
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
