/**
 * Recreates the test database from empty and migrates it (CI proves the migrations apply to a
 * fresh database on every run), then seeds the default plans and the price catalogue (like a real
 * install: once any card is stored the stored cards are the whole catalogue, so a test that adds
 * one card must not leave the others unpriced). Tests never touch the dev database.
 */
import { parseConfig } from "@breakwater/config";
import { seedDefaultPlans, seedPriceCatalogue } from "@breakwater/core";
import { createDb } from "@breakwater/db";
import pg from "pg";
import { testHarnessEnv } from "../../packages/config/src/test-env";
import { runPrisma } from "../../packages/db/scripts/prisma";

let url: string;
try {
  url = testHarnessEnv().TEST_DATABASE_URL;
} catch (err) {
  process.stderr.write(`prepare-test-db: ${(err as Error).message}\n`);
  process.exit(2);
}
parseConfig({ DATABASE_URL: url }); // refuse a malformed URL with one line

const u = new URL(url);
const name = decodeURIComponent(u.pathname.slice(1));
const admin = new URL(url);
admin.pathname = "/postgres";
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
await client.end();

const code = runPrisma(["migrate", "deploy"], url, true);
if (code !== 0) {
  console.error(`prepare-test-db: migrate deploy failed (${code})`);
  process.exit(code);
}
const db = createDb(url);
await seedDefaultPlans(db);
await seedPriceCatalogue(db);
await db.$disconnect();
console.log(`prepare-test-db: ${name} migrated from empty and seeded`);
