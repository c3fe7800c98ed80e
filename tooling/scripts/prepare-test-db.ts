/**
 * Recreates the test database from empty and migrates it (CI proves the migrations apply to a
 * fresh database on every run), then seeds the default plans and the price catalogue (like a real
 * install: once any card is stored the stored cards are the whole catalogue, so a test that adds
 * one card must not leave the others unpriced). Tests never touch the dev database.
 *
 * The Playwright suite gets its own copy, made here from the fresh one (CREATE DATABASE … TEMPLATE),
 * and its own emptied Redis db, so its server and worker start on a clean installation whatever the
 * integration suites leave behind.
 */
import { parseConfig } from "@breakwater/config";
import { seedDefaultPlans, seedPriceCatalogue } from "@breakwater/core";
import { createDb } from "@breakwater/db";
import { closeRedis, createRedisClient, whenReady } from "@breakwater/queue";
import pg from "pg";
import { testHarnessEnv } from "../../packages/config/src/test-env";
import { runPrisma } from "../../packages/db/scripts/prisma";

let url: string;
let e2eUrl: string;
let e2eRedisUrl: string;
try {
  ({ TEST_DATABASE_URL: url, E2E_DATABASE_URL: e2eUrl, E2E_REDIS_URL: e2eRedisUrl } = testHarnessEnv());
} catch (err) {
  process.stderr.write(`prepare-test-db: ${(err as Error).message}\n`);
  process.exit(2);
}
parseConfig({ DATABASE_URL: url }); // refuse a malformed URL with one line
parseConfig({ DATABASE_URL: e2eUrl, REDIS_URL: e2eRedisUrl });

const dbName = (u: string) => decodeURIComponent(new URL(u).pathname.slice(1));
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const name = dbName(url);
const e2eName = dbName(e2eUrl);
if (e2eName === name || new URL(e2eUrl).host !== new URL(url).host) {
  process.stderr.write("prepare-test-db: E2E_DATABASE_URL must name another database on the test server\n");
  process.exit(2);
}
const admin = new URL(url);
admin.pathname = "/postgres";
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
await client.query(`DROP DATABASE IF EXISTS ${quoted(e2eName)} WITH (FORCE)`);
await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
await client.query(`CREATE DATABASE ${quoted(name)}`);

const code = runPrisma(["migrate", "deploy"], url, true);
if (code !== 0) {
  console.error(`prepare-test-db: migrate deploy failed (${code})`);
  process.exit(code);
}
const db = createDb(url);
await seedDefaultPlans(db);
await seedPriceCatalogue(db);
await db.$disconnect();
// Nothing else is connected to the fresh database yet, so it can be the e2e copy's template.
await client.query(`CREATE DATABASE ${quoted(e2eName)} TEMPLATE ${quoted(name)}`);
await client.end();
const redis = createRedisClient({ REDIS_URL: e2eRedisUrl }, "producer");
if (!(await whenReady(redis, 5_000)))
  throw new Error(`prepare-test-db: Redis at ${e2eRedisUrl} did not answer`);
await redis.flushdb();
await closeRedis(redis);
console.log(
  `prepare-test-db: ${name} migrated from empty and seeded; ${e2eName} copied from it; ${e2eRedisUrl} emptied`,
);
