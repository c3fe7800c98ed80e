import type { PriceCard, PrismaClient, Tx } from "@breakwater/db";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import type { PriceCardInput } from "./price-card";
import { PriceCatalogue } from "./price-catalogue";

type DecimalLike = { toFixed(): string } | { toString(): string } | string | number;

function dec(v: DecimalLike | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  // Prisma decimals print small values in exponent form through toString(); toFixed() never does.
  return "toFixed" in v ? v.toFixed() : v.toString();
}

function stringRecord(v: unknown): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (typeof x === "string" || typeof x === "number") out[k] = String(x);
  }
  return out;
}

/** A stored price card as catalogue input (validated when the catalogue is built). */
export function priceCardFromRow(row: PriceCard): PriceCardInput {
  const long =
    row.longContextThreshold !== null && row.longInputPerMtok !== null && row.longOutputPerMtok !== null
      ? {
          threshold: row.longContextThreshold,
          inputPerMtok: dec(row.longInputPerMtok) as string,
          cachedInputPerMtok: dec(row.longCachedPerMtok),
          cacheWrite5mPerMtok: dec(row.longCacheWrite5mPerMtok),
          cacheWrite1hPerMtok: dec(row.longCacheWrite1hPerMtok),
          outputPerMtok: dec(row.longOutputPerMtok) as string,
        }
      : null;
  return {
    provider: row.provider as PriceCardInput["provider"],
    model: row.model,
    aliases: row.aliases,
    patterns: row.patterns,
    unit: row.unit as PriceCardInput["unit"],
    inputPerMtok: dec(row.inputPerMtok) as string,
    cachedInputPerMtok: dec(row.cachedInputPerMtok),
    cacheWrite5mPerMtok: dec(row.cacheWrite5mPerMtok),
    cacheWrite1hPerMtok: dec(row.cacheWrite1hPerMtok),
    outputPerMtok: dec(row.outputPerMtok) as string,
    longContext: long,
    unitPrices: stringRecord(row.unitPrices),
    regionMultipliers: stringRecord(row.regionMultipliers),
    tierMultipliers: stringRecord(row.tierMultipliers),
    source: row.source,
    sourceDate: row.sourceDate.toISOString().slice(0, 10),
    notes: row.notes,
  };
}

/**
 * Reads every price card from Postgres into an in-memory catalogue (one query; call it at start-up
 * and when an edit is announced, never per request). A row that fails validation is left out and
 * listed in `catalogue.rejected` instead of failing the load.
 */
export async function loadPriceCatalogue(db: PrismaClient | Tx): Promise<PriceCatalogue> {
  const rows = await db.priceCard.findMany({ orderBy: [{ provider: "asc" }, { model: "asc" }] });
  return PriceCatalogue.fromCards(rows.map(priceCardFromRow));
}

/**
 * The catalogue a process prices with: the stored cards, or the seed cards when none are stored
 * (an unseeded database still prices the well-known models instead of calling everything
 * unpriced). The SDK API, the explainer and re-pricing all load through here, so they agree.
 */
export async function loadLivePriceCatalogue(db: PrismaClient | Tx): Promise<PriceCatalogue> {
  const loaded = await loadPriceCatalogue(db);
  return loaded.size > 0 ? loaded : PriceCatalogue.fromCards(SEED_PRICE_CARDS);
}
