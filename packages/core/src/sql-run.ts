import type { Tx } from "@breakwater/db";
import type { Pool } from "pg";

/**
 * One statement with positional parameters ($1, $2, …) on a connection inside an open transaction,
 * its rows back. Hot paths that run a handful of multi-row statements per transaction take one of
 * these, so the same code runs on a plain `pg` client (no ORM between the statement and the socket)
 * or inside a Prisma interactive transaction.
 */
export type SqlRun = <T = Record<string, unknown>>(text: string, values: readonly unknown[]) => Promise<T[]>;

/** A SqlRun inside a Prisma interactive transaction. */
export function prismaSqlRun(tx: Tx): SqlRun {
  return <T>(text: string, values: readonly unknown[]) => tx.$queryRawUnsafe<T[]>(text, ...values);
}

/**
 * Runs `work` in one transaction on a connection of `pool` (BEGIN … COMMIT, ROLLBACK on a throw).
 * A connection whose ROLLBACK fails is closed rather than returned to the pool.
 */
export async function pgTransaction<T>(pool: Pool, work: (q: SqlRun) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const out = await work(
      async <R>(text: string, values: readonly unknown[]) =>
        (await client.query(text, values as unknown[])).rows as R[],
    );
    await client.query("COMMIT");
    return out;
  } catch (err) {
    await client.query("ROLLBACK").catch((e: unknown) => {
      broken = e instanceof Error ? e : new Error(String(e));
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
