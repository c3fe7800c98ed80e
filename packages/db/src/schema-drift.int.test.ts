import { parseConfig } from "@breakwater/config";
import { describe, expect, it } from "vitest";
import { runPrisma } from "../scripts/prisma";

describe("prisma/schema.prisma against the migrated database", () => {
  // The migrations hold what Prisma cannot express (metadata_events' partitions): the schema must
  // still describe exactly the tables, keys and indexes they create, or the next `migrate dev`
  // would generate a migration that undoes them.
  it("has no drift (migrate diff finds nothing to change)", { timeout: 120_000 }, () => {
    const url = parseConfig(process.env).DATABASE_URL;
    const code = runPrisma(
      ["migrate", "diff", "--from-config-datasource", "--to-schema", "prisma/schema.prisma", "--exit-code"],
      url,
      true,
    );
    expect(code).toBe(0);
  });
});
