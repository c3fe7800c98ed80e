// `npm run -s bw -- <command>` starts here: the admin CLI runs from two bundled files (plain node, no
// TypeScript loader), rebuilt first whenever a source they are built from is newer — the CLI, the
// tooling and workspace packages they inline, the Prisma schema, the lockfile. Transpiling the
// workspace on every run (tsx) took seconds per command. tooling/dist/bw-fast.mjs (fast.ts, npm
// packages inlined) answers help and the listings with plain SQL and hands every other command to
// tooling/dist/bw.mjs (bw.ts, the Prisma-backed CLI).
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// tooling/dist sits at the depth of tooling/src, so the bundled repoRoot (../.. of the file) holds.
const dist = path.join(root, "tooling", "dist");
const bundle = path.join(dist, "bw.mjs");
const front = path.join(dist, "bw-fast.mjs");
// What the last build was built from: every workspace file esbuild read for either bundle. Statting
// just those (about 200) instead of walking every source directory keeps the check to a few ms.
const sourcesFile = path.join(dist, "bw.sources.json");
/** Sources that reach the bundles without being imported: the lockfile (npm packages), the schema, the bundler. */
const ALWAYS = ["package-lock.json", "prisma/schema.prisma", "tooling/scripts/bundle-node.mjs"];

/** Why the bundles must be rebuilt (a changed or vanished source, or no build), or null. */
function staleBecause() {
  let built;
  let sources;
  try {
    // The older of the two bundles; both are rebuilt together.
    built = Math.min(statSync(bundle).mtimeMs, statSync(front).mtimeMs);
    sources = JSON.parse(readFileSync(sourcesFile, "utf8"));
  } catch {
    return "no build yet";
  }
  for (const rel of [...ALWAYS, ...sources]) {
    let mtime;
    try {
      mtime = statSync(path.join(root, rel)).mtimeMs;
    } catch {
      return `${rel} is gone`;
    }
    if (mtime > built) return `${rel} changed`;
  }
  return null;
}

const changed = staleBecause();
if (changed) {
  process.stderr.write(`bw: building the CLI (${changed})\n`);
  const { bundleNodeService } = await import("../scripts/bundle-node.mjs");
  // Each is built beside its final name and renamed over it: a concurrent run never imports half a file.
  const tmp = (file) => `${file}.${process.pid}.tmp.mjs`;
  const built = await Promise.all([
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
      // pg asks whether it runs on Cloudflare Workers by constructing a fetch Response, which
      // makes Node load all of undici (a fifth of a short command's time). Remote mode (remote.ts)
      // does fetch, through Node's own fetch, which this does not touch; openapi-fetch names
      // Response only for middleware results, and bw registers no middleware.
      define: { Response: "undefined" },
    }),
  ]);
  // The full CLI first: a front that exists always finds its bw.mjs.
  renameSync(tmp(bundle), bundle);
  renameSync(tmp(front), front);
  const inputs = new Set(built.flatMap((b) => b.inputs.map((f) => path.relative(root, f))));
  const tmpSources = `${sourcesFile}.${process.pid}.tmp`;
  writeFileSync(tmpSources, `${JSON.stringify([...inputs].sort(), null, 1)}\n`);
  renameSync(tmpSources, sourcesFile);
}
await import(pathToFileURL(front).href);
