// Production bundle of a Node service of this workspace: one ESM file with the workspace packages
// (@breakwater/*, TypeScript sources) inlined and every npm dependency left external (installed
// beside it), so production runs plain `node` with no TypeScript loader.
//
//   node tooling/scripts/bundle-node.mjs <entry.ts> <outfile.mjs>     (paths relative to the cwd)
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const LAZY_NAMESPACE = "bw-lazy-external";
const WASM_NAMESPACE = "bw-wasm-beside";

/**
 * The source of a stand-in for the npm package `pkg`: every export of it (read here, at build time)
 * becomes a Proxy that `require`s the real package the first time it is constructed, called or
 * read, and forwards to it — so a bundle whose commands seldom need a heavy driver does not load it
 * at start. Classes keep working through the proxy: `new`, `extends`, static members, `instanceof`.
 */
function lazyStandIn(pkg, fromDir) {
  const names = Object.keys(createRequire(path.join(fromDir, "noop.js"))(pkg)).filter((n) =>
    /^[A-Za-z_$][\w$]*$/.test(n),
  );
  const exportsList = names
    .filter((n) => n !== "default")
    .map((n) => `export const ${n} = lazy(${JSON.stringify(n)});`)
    .join("\n");
  return `import { createRequire as createLazyRequire } from "node:module";
let real;
const load = () => (real ??= createLazyRequire(import.meta.url)(${JSON.stringify(pkg)}));
function lazy(name) {
  const get = () => (name === "default" ? (load().default ?? load()) : load()[name]);
  const proxy = new Proxy(function () {}, {
    construct: (_t, args, newTarget) => Reflect.construct(get(), args, newTarget === proxy ? get() : newTarget),
    apply: (_t, self, args) => Reflect.apply(get(), self, args),
    get: (_t, prop) => get()[prop],
    has: (_t, prop) => prop in get(),
    set: (_t, prop, value) => Reflect.set(get(), prop, value),
  });
  return proxy;
}
${exportsList}
export default lazy("default");
`;
}

/** Prisma's query compiler, shipped as a JS module holding the WebAssembly in one base64 string. */
const PRISMA_WASM_BASE64 = /^@prisma\/client\/runtime\/(query_compiler_[\w.]+)\.wasm-base64\.mjs$/;

/**
 * Bundles `entry` into `outfile` (with a linked source map unless `sourcemap` is false). The npm
 * packages named in `lazy` are loaded on first use instead of at start (see lazyStandIn). With
 * `wasmBeside`, Prisma's query compiler is written beside the bundle as a binary .wasm file and read
 * from there: V8 parsing the 4.6 MB base64 module took longer than the rest of a short command.
 * With `inline`, npm packages are bundled too (all but those named in `external`): a short-lived
 * command then reads one file instead of resolving, reading and ESM-wrapping dozens of packages.
 * Resolves to the workspace files the bundle was built from (`inputs`, absolute paths).
 */
export async function bundleNodeService({
  entry,
  outfile,
  sourcemap = true,
  lazy = [],
  wasmBeside = false,
  inline = false,
  external = [],
  define = {},
}) {
  const fromDir = path.dirname(path.resolve(entry));
  const outDir = path.dirname(path.resolve(outfile));
  const result = await build({
    metafile: true,
    entryPoints: [path.resolve(entry)],
    outfile: path.resolve(outfile),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap,
    define,
    plugins: [
      {
        name: "external-npm-packages",
        setup(b) {
          // Bare imports are npm packages, except the workspace's own, whose sources are inlined.
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith("@breakwater/")) return undefined;
            if (inline && !external.some((x) => args.path === x || args.path.startsWith(`${x}/`)))
              return undefined;
            if (wasmBeside && PRISMA_WASM_BASE64.test(args.path))
              return {
                path: args.path,
                namespace: WASM_NAMESPACE,
                pluginData: { resolveDir: args.resolveDir },
              };
            if (lazy.includes(args.path) && args.namespace !== LAZY_NAMESPACE)
              return { path: args.path, namespace: LAZY_NAMESPACE };
            return { path: args.path, external: true };
          });
          b.onLoad({ filter: /.*/, namespace: WASM_NAMESPACE }, async (args) => {
            const name = `${PRISMA_WASM_BASE64.exec(args.path)[1]}.wasm`;
            const source = createRequire(path.join(args.pluginData.resolveDir, "noop.js")).resolve(args.path);
            const { wasm } = await import(pathToFileURL(source).href);
            // Written beside and renamed over: a command starting meanwhile never reads half a file.
            mkdirSync(outDir, { recursive: true });
            const tmp = path.join(outDir, `${name}.${process.pid}.tmp`);
            writeFileSync(tmp, Buffer.from(wasm, "base64"));
            renameSync(tmp, path.join(outDir, name));
            return {
              contents: `import { readFileSync } from "node:fs";
export const wasm = readFileSync(new URL(${JSON.stringify(`./${name}`)}, import.meta.url)).toString("base64");
`,
              loader: "js",
            };
          });
          b.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => ({
            contents: lazyStandIn(args.path, fromDir),
            loader: "js",
            resolveDir: fromDir,
          }));
        },
      },
    ],
    // Bundled CommonJS helpers (Prisma's generated client) still call require().
    banner: {
      js: "import { createRequire as __bwCreateRequire } from 'node:module'; const require = __bwCreateRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  // The files it was built from (the workspace's, not npm packages or stand-ins), absolute.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((f) => !/^[\w-]+:/.test(f) && !f.includes("node_modules"))
    .map((f) => path.resolve(f));
  return { inputs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    process.stderr.write("usage: bundle-node.mjs <entry.ts> <outfile.mjs>\n");
    process.exit(2);
  }
  await bundleNodeService({ entry, outfile });
}
