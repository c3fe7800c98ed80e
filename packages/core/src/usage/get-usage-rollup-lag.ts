import type { PrismaClient } from "@breakwater/db";
import { USAGE_WATERMARK_ID } from "./roll-up-usage";

/**
 * Seconds between now and the usage rollup watermark (events received before it are rolled up),
 * by the database's clock; null before the first rollup step. A healthy worker keeps it near the
 * rollup interval; a growing value means the rollups (and the usage pages) fall behind.
 */
export async function getUsageRollupLagSeconds(db: PrismaClient): Promise<number | null> {
  const [row] = await db.$queryRaw<{ lag: number }[]>`
    SELECT extract(epoch FROM now() - received_before)::float8 AS lag
      FROM usage_rollup_watermarks WHERE id = ${USAGE_WATERMARK_ID}`;
  return row ? Math.max(0, row.lag) : null;
}
