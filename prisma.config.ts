import { defineConfig, env } from "prisma/config";

// Run the CLI through `npm run -w @breakwater/db <script>` (packages/db/scripts/prisma.ts): it fills
// DATABASE_URL from packages/config and points Prisma at the offline schema engine.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: env("DATABASE_URL") },
});
