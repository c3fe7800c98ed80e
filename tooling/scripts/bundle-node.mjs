// Production bundle of a Node service of this workspace: one ESM file with the workspace packages
// (@breakwater/*, TypeScript sources) inlined and every npm dependency left external (installed
// beside it), so production runs plain `node` with no TypeScript loader.
//
//   node tooling/scripts/bundle-node.mjs <entry.ts> <outfile.mjs>     (paths relative to the cwd)
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** Bundles `entry` into `outfile` (with a linked source map unless `sourcemap` is false). */
export async function bundleNodeService({ entry, outfile, sourcemap = true }) {
  await build({
    entryPoints: [path.resolve(entry)],
    outfile: path.resolve(outfile),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap,
    plugins: [
      {
        name: "external-npm-packages",
        setup(b) {
          // Bare imports are npm packages, except the workspace's own, whose sources are inlined.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@breakwater/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    // Bundled CommonJS helpers (Prisma's generated client) still call require().
    banner: {
      js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    process.stderr.write("usage: bundle-node.mjs <entry.ts> <outfile.mjs>\n");
    process.exit(2);
  }
  await bundleNodeService({ entry, outfile });
}
