import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";

export * from "./generated/prisma/client";
export { PrismaClient };
export type Db = PrismaClient;
/** A client usable inside `db.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** Creates a Prisma client on node-postgres (driver adapter; no native engine needed). */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 });
  return new PrismaClient({ adapter });
}

const globalForDb = globalThis as unknown as { __breakwaterDb?: Map<string, PrismaClient> };

/** One client per database URL per process (survives Next.js dev hot reloads). */
export function sharedDb(databaseUrl: string): PrismaClient {
  globalForDb.__breakwaterDb ??= new Map();
  let db = globalForDb.__breakwaterDb.get(databaseUrl);
  if (!db) {
    db = createDb(databaseUrl);
    globalForDb.__breakwaterDb.set(databaseUrl, db);
  }
  return db;
}

/** True when the error is a unique-constraint violation (Prisma P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "P2002";
}
