// `npm run -s bw -- <command>` starts here: the admin CLI runs from two bundled files (plain node, no
// TypeScript loader), rebuilt first whenever a source they are built from is newer — the CLI, the
// tooling and workspace packages they inline, the Prisma schema, the lockfile. Transpiling the
// workspace on every run (tsx) took seconds per command. tooling/dist/bw-fast.mjs (fast.ts, npm
// packages inlined) answers help and the listings with plain SQL and hands every other command to
// tooling/dist/bw.mjs (bw.ts, the Prisma-backed CLI).
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// tooling/dist sits at the depth of tooling/src, so the bundled repoRoot (../.. of the file) holds.
const bundle = path.join(root, "tooling", "dist", "bw.mjs");
const front = path.join(root, "tooling", "dist", "bw-fast.mjs");
const SOURCES = [
  "tooling/cli",
  "tooling/src",
  "packages",
  "prisma/schema.prisma",
  "package-lock.json",
  "tooling/scripts/bundle-node.mjs",
];
const IGNORED = new Set(["node_modules", "dist", ".turbo", "coverage", ".next"]);

/** The first source newer than `built` (ms), or null. */
function newerSource(built) {
  const visit = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return null;
    }
    if (!st.isDirectory()) return st.mtimeMs > built ? p : null;
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (IGNORED.has(e.name) || /\.(test|spec)\.tsx?$/.test(e.name)) continue;
      const hit = visit(path.join(p, e.name));
      if (hit) return hit;
    }
    return null;
  };
  for (const s of SOURCES) {
    const hit = visit(path.join(root, s));
    if (hit) return hit;
  }
  return null;
}

// The older of the two bundles; both are rebuilt together.
const built =
  existsSync(bundle) && existsSync(front) ? Math.min(statSync(bundle).mtimeMs, statSync(front).mtimeMs) : 0;
const changed = built === 0 ? "no build yet" : newerSource(built);
if (changed) {
  process.stderr.write(
    `bw: building the CLI (${built === 0 ? changed : `${path.relative(root, changed)} changed`})\n`,
  );
  const { bundleNodeService } = await import("../scripts/bundle-node.mjs");
  // Each is built beside its final name and renamed over it: a concurrent run never imports half a file.
  const tmp = (file) => `${file}.${process.pid}.tmp.mjs`;
  await Promise.all([
    bundleNodeService({
      entry: path.join(root, "tooling", "cli", "bw.ts"),
      outfile: tmp(bundle),
      sourcemap: false,
      // Redis, BullMQ and Svix drivers load when a command first uses them: `org list` needs none.
      lazy: ["bullmq", "ioredis", "svix", "better-auth/crypto"],
      wasmBeside: true,
    }),
    bundleNodeService({
      entry: path.join(root, "tooling", "cli", "fast.ts"),
      outfile: tmp(front),
      sourcemap: false,
      inline: true,
      // pg's optional native binding, never installed here.
      external: ["pg-native"],
    }),
  ]);
  // The full CLI first: a front that exists always finds its bw.mjs.
  renameSync(tmp(bundle), bundle);
  renameSync(tmp(front), front);
}
await import(pathToFileURL(front).href);
