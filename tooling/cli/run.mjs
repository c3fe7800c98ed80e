// `npm run -s bw -- <command>` starts here: the admin CLI runs from one bundled file
// (tooling/dist/bw.mjs, plain node, no TypeScript loader), rebuilt first whenever a source it is
// built from is newer — the CLI, the tooling and workspace packages it inlines, the Prisma schema,
// the lockfile. Transpiling the workspace on every run (tsx) took seconds per command.
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// tooling/dist sits at the depth of tooling/src, so the bundled repoRoot (../.. of the file) holds.
const bundle = path.join(root, "tooling", "dist", "bw.mjs");
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

const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
const changed = built === 0 ? "no build yet" : newerSource(built);
if (changed) {
  process.stderr.write(
    `bw: building the CLI (${built === 0 ? changed : `${path.relative(root, changed)} changed`})\n`,
  );
  const { bundleNodeService } = await import("../scripts/bundle-node.mjs");
  // Built beside the bundle and renamed over it: a concurrent run never imports half a file.
  const tmp = `${bundle}.${process.pid}.tmp.mjs`;
  await bundleNodeService({
    entry: path.join(root, "tooling", "cli", "bw.ts"),
    outfile: tmp,
    sourcemap: false,
    // Redis, BullMQ and Svix drivers load when a command first uses them: `plan list` needs none.
    lazy: ["bullmq", "ioredis", "svix", "better-auth/crypto"],
    wasmBeside: true,
  });
  renameSync(tmp, bundle);
}
await import(pathToFileURL(bundle).href);
