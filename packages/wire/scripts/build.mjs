// Production build of the lean SDK API server: one ESM file with every workspace package inlined
// and npm dependencies left external (they are installed beside it).
import { build } from "esbuild";

await build({
  entryPoints: [new URL("../src/main.ts", import.meta.url).pathname],
  outfile: new URL("../dist/sdk-api.mjs", import.meta.url).pathname,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external: ["pg", "ioredis", "pino", "@prisma/*", "zod", "svix", "bullmq"],
  // Bundled CommonJS helpers (Prisma's generated client) still call require().
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: "warning",
});
