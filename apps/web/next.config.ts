import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: [
    "@breakwater/api",
    "@breakwater/config",
    "@breakwater/core",
    "@breakwater/db",
    "@breakwater/manage",
    "@breakwater/queue",
    "@breakwater/wire",
    "geist",
  ],
  // Server-only packages with native/wasm pieces or dynamic requires stay outside the bundle.
  serverExternalPackages: [
    "@prisma/client",
    "@prisma/adapter-pg",
    "@prisma/driver-adapter-utils",
    "pg",
    "pino",
    "ioredis",
    "bullmq",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // `npm test` type-checks this app in its own task (tsc --noEmit); the build repeating it cost
  // 20 s of the test run on 2 cores, so the build skips it.
  typescript: { tsconfigPath: "tsconfig.json", ignoreBuildErrors: true },
};

export default nextConfig;
