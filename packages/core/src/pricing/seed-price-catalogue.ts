import type { Prisma, PrismaClient } from "@breakwater/db";
import { newId } from "../ids";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { Dec } from "./decimal";
import { priceCardFromRow } from "./load-price-catalogue";
import { type PriceCardData, type PriceCardInput, priceCardSchema } from "./price-card";

export interface SeedPriceCatalogueResult {
  /** Seed cards that did not exist and were inserted. */
  created: number;
  /** Seed-managed cards (never edited by an operator) updated to newer seed figures. */
  refreshed: number;
  /** Cards an operator has edited (updated_by_id set): left exactly as they are. */
  keptOperatorEdits: number;
  unchanged: number;
}

/** The price_cards columns of a validated card (seed and operator edits write the same shape). */
export function priceCardRowData(card: PriceCardData) {
  const lc = card.longContext;
  return {
    provider: card.provider,
    model: card.model,
    aliases: card.aliases,
    patterns: card.patterns,
    unit: card.unit,
    inputPerMtok: card.inputPerMtok,
    cachedInputPerMtok: card.cachedInputPerMtok,
    cacheWrite5mPerMtok: card.cacheWrite5mPerMtok,
    cacheWrite1hPerMtok: card.cacheWrite1hPerMtok,
    outputPerMtok: card.outputPerMtok,
    longContextThreshold: lc?.threshold ?? null,
    longInputPerMtok: lc?.inputPerMtok ?? null,
    longCachedPerMtok: lc?.cachedInputPerMtok ?? null,
    longCacheWrite5mPerMtok: lc?.cacheWrite5mPerMtok ?? null,
    longCacheWrite1hPerMtok: lc?.cacheWrite1hPerMtok ?? null,
    longOutputPerMtok: lc?.outputPerMtok ?? null,
    unitPrices: card.unitPrices as Prisma.InputJsonObject,
    regionMultipliers: card.regionMultipliers as Prisma.InputJsonObject,
    tierMultipliers: card.tierMultipliers as Prisma.InputJsonObject,
    source: card.source,
    sourceDate: new Date(`${card.sourceDate}T00:00:00.000Z`),
    notes: card.notes,
  };
}

/** A comparable form of a card: decimals normalised ("5.00" = "5"), maps sorted. */
export function canonicalCard(input: PriceCardInput): string {
  const card = priceCardSchema.parse(input);
  const norm = (v: unknown): unknown => {
    if (typeof v === "string" && Dec.isDecimal(v) && v.trim() !== "") return Dec.from(v).toString();
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, x]) => [k, norm(x)]),
      );
    }
    return v;
  };
  return JSON.stringify(norm(card));
}

/**
 * Idempotently brings the seed price catalogue into Postgres. Missing cards are inserted; a card
 * nobody has edited (updated_by_id null) is refreshed to newer seed figures; a card an operator
 * has edited is never touched — the dashboard must set updated_by_id on every edit. Safe to run
 * concurrently from several processes (inserts skip duplicates; refreshes are guarded on
 * updated_by_id in the same statement). A card an operator deleted comes back on the next seed.
 */
export async function seedPriceCatalogue(
  db: PrismaClient,
  cards: readonly PriceCardInput[] = SEED_PRICE_CARDS,
): Promise<SeedPriceCatalogueResult> {
  const seeds = cards.map((c) => priceCardSchema.parse(c) as PriceCardData);
  const existing = await db.priceCard.findMany({
    where: { OR: seeds.map((c) => ({ provider: c.provider, model: c.model })) },
  });
  const byKey = new Map(existing.map((r) => [`${r.provider}:${r.model}`, r]));
  const result: SeedPriceCatalogueResult = { created: 0, refreshed: 0, keptOperatorEdits: 0, unchanged: 0 };

  const toCreate: PriceCardData[] = [];
  for (const seed of seeds) {
    const row = byKey.get(`${seed.provider}:${seed.model}`);
    if (!row) {
      toCreate.push(seed);
      continue;
    }
    if (row.updatedById !== null) {
      result.keptOperatorEdits++;
      continue;
    }
    if (canonicalCard(priceCardFromRow(row)) === canonicalCard(seed)) {
      result.unchanged++;
      continue;
    }
    const { count } = await db.priceCard.updateMany({
      where: { id: row.id, updatedById: null },
      data: priceCardRowData(seed),
    });
    if (count === 1) result.refreshed++;
    else result.keptOperatorEdits++;
  }
  if (toCreate.length > 0) {
    const { count } = await db.priceCard.createMany({
      data: toCreate.map((c) => ({ id: newId("card"), ...priceCardRowData(c) })),
      skipDuplicates: true,
    });
    result.created = count;
  }
  return result;
}
