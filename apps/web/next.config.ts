import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: [
    "@breakwater/api",
    "@breakwater/config",
    "@breakwater/core",
    "@breakwater/db",
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
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default nextConfig;
