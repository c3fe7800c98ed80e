import type { PriceCard, Prisma } from "@breakwater/db";
import { sharedPublisher } from "../api-keys/invalidate-api-key";
import { recordAudit } from "../audit/record-audit";
import type { Ctx, Deps } from "../context";
import { conflict, invalid, notFound } from "../errors";
import { newId } from "../ids";
import { type FieldErrors, parseInput, requireOperator } from "../operator/operator-input";
import { priceCardFromRow } from "./load-price-catalogue";
import type { PriceCardData, PriceCardInput } from "./price-card";
import {
  createPriceCardInput,
  listPriceCardsInput,
  type PriceCardEdit,
  priceCardEditInput,
  updatePriceCardInput,
} from "./price-card-input";
import { normalizedCandidates } from "./price-catalogue";
import { publishPriceCatalogueChange } from "./price-catalogue-holder";
import { priceCardRowData } from "./seed-price-catalogue";

/** A price card as the operator console shows it. */
export type PriceCardDto = PriceCardInput & {
  id: string;
  updatedAt: string;
  createdAt: string;
  /** Null while the card still carries the seed's figures. */
  updatedById: string | null;
};

function toDto(row: PriceCard): PriceCardDto {
  return {
    ...priceCardFromRow(row),
    id: row.id,
    updatedAt: row.updatedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedById: row.updatedById,
  };
}

/**
 * Tells every replica's catalogue holder to reload (Redis pub/sub, see price-catalogue-holder).
 * Called after the edit committed; a failed publish is logged, the edit stands (replicas also
 * reload on every pub/sub reconnect).
 */
export async function announcePriceCatalogueChange(
  deps: Pick<Deps, "redis" | "config" | "log">,
): Promise<void> {
  const publisher = deps.redis ?? sharedPublisher(deps.config);
  await publishPriceCatalogueChange(publisher).catch((err: unknown) =>
    deps.log.error({ err }, "announcing a price catalogue edit failed; replicas reload on reconnect"),
  );
}

/**
 * Field errors for ids of `card` that another card of the same provider already answers to: its
 * model id or an alias equal to another card's model id or alias (case-insensitive), or a pattern
 * matching one. Two cards claiming one id would make the price of that id depend on load order.
 */
export function collisionErrors(
  card: Pick<PriceCardEdit, "provider" | "model" | "aliases" | "patterns">,
  others: readonly Pick<PriceCardData, "provider" | "model" | "aliases">[],
): FieldErrors {
  const owner = new Map<string, string>();
  for (const o of others) {
    if (o.provider !== card.provider) continue;
    owner.set(o.model.toLowerCase(), o.model);
    for (const a of o.aliases) if (!owner.has(a.toLowerCase())) owner.set(a.toLowerCase(), o.model);
  }
  const errors: FieldErrors = {};
  const taken = owner.get(card.model.toLowerCase());
  if (taken) errors.model = `Already an id of the card ${card.provider}/${taken}`;
  card.aliases.forEach((a, i) => {
    const t = owner.get(a.toLowerCase());
    if (t) errors[`aliases.${i}`] = `Collides with the card ${card.provider}/${t}`;
    else if (a.toLowerCase() === card.model.toLowerCase()) errors[`aliases.${i}`] = "Same as the model id";
  });
  card.patterns.forEach((p, i) => {
    const re = new RegExp(p, "i");
    for (const [id, model] of owner) {
      if (normalizedCandidates(id).some((c) => re.test(c))) {
        errors[`patterns.${i}`] = `Matches ${id}, an id of the card ${card.provider}/${model}`;
        return;
      }
    }
  });
  return errors;
}

function refuse(errors: FieldErrors): never {
  const [path, message] = Object.entries(errors)[0] as [string, string];
  throw invalid(`${path}: ${message}`, { fieldErrors: errors });
}

async function othersOf(tx: Prisma.TransactionClient, provider: string, exceptId: string | null) {
  const rows = await tx.priceCard.findMany({
    where: { provider, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { provider: true, model: true, aliases: true },
  });
  return rows as Pick<PriceCardData, "provider" | "model" | "aliases">[];
}

function actorId(ctx: Ctx): string {
  return ctx.actor.type === "user"
    ? ctx.actor.userId
    : `${ctx.actor.type}:${"name" in ctx.actor ? ctx.actor.name : ""}`;
}

// Card edits serialise on one advisory lock so two concurrent saves cannot both pass the
// collision check and then claim the same alias.
const lockCards = (tx: Prisma.TransactionClient) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('breakwater:price-cards'))`;

/** Adds a card (operator only): validated, collision-free, audited; every replica re-prices within a pub/sub hop. */
export async function createPriceCard(ctx: Ctx, raw: unknown): Promise<PriceCardDto> {
  requireOperator(ctx);
  const card = parseInput(createPriceCardInput, raw);
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCards(tx);
    const errors = collisionErrors(card, await othersOf(tx, card.provider, null));
    if (Object.keys(errors).length > 0) refuse(errors);
    const created = await tx.priceCard.create({
      data: { id: newId("card"), ...priceCardRowData(card as PriceCardData), updatedById: actorId(ctx) },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: "price_card.created",
      targetType: "price_card",
      targetId: created.id,
      after: priceCardFromRow(created),
    });
    return created;
  });
  await announcePriceCatalogueChange(ctx);
  return toDto(row);
}

/**
 * Replaces every field of a card (operator only). Refused with CONFLICT when the card changed
 * since the editor opened it; provider and model id stay (a different model is a new card).
 * Nothing is written unless the whole card is valid; the audit row holds before and after.
 */
export async function updatePriceCard(ctx: Ctx, raw: unknown): Promise<PriceCardDto> {
  requireOperator(ctx);
  const { id, expectedUpdatedAt, card: rawCard } = parseInput(updatePriceCardInput, raw);
  const card = parseInput(priceCardEditInput, rawCard);
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCards(tx);
    const before = await tx.priceCard.findUnique({ where: { id } });
    if (!before) throw notFound("Price card");
    if (before.provider !== card.provider || before.model !== card.model)
      refuse({ model: "The provider and model id of a card cannot change: add a new card instead" });
    if (before.updatedAt.toISOString() !== expectedUpdatedAt)
      throw conflict("This card was changed by someone else since you opened it: reload and edit again");
    const errors = collisionErrors(card, await othersOf(tx, card.provider, id));
    if (Object.keys(errors).length > 0) refuse(errors);
    const updated = await tx.priceCard.update({
      where: { id },
      data: { ...priceCardRowData(card as PriceCardData), updatedById: actorId(ctx) },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: "price_card.updated",
      targetType: "price_card",
      targetId: id,
      before: priceCardFromRow(before),
      after: priceCardFromRow(updated),
    });
    return updated;
  });
  await announcePriceCatalogueChange(ctx);
  return toDto(row);
}

/** One card by id (operator only). */
export async function getPriceCard(ctx: Ctx, id: string): Promise<PriceCardDto> {
  requireOperator(ctx);
  const row = await ctx.db.priceCard.findUnique({ where: { id } });
  if (!row) throw notFound("Price card");
  return toDto(row);
}

export interface PriceCardPage {
  items: PriceCardDto[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Cards ordered by provider then model, searched by provider, model or alias (case-insensitive
 * substring), keyset-paged (the cursor is the last card's id; an unknown one is INVALID).
 */
export async function listPriceCards(ctx: Ctx, raw: unknown): Promise<PriceCardPage> {
  requireOperator(ctx);
  const input = parseInput(listPriceCardsInput, raw ?? {});
  let after: { provider: string; model: string } | null = null;
  if (input.cursor) {
    after = await ctx.db.priceCard.findUnique({
      where: { id: input.cursor },
      select: { provider: true, model: true },
    });
    // A cursor naming no card would silently restart the list from the top.
    if (!after)
      throw invalid("cursor: No card has that id", { fieldErrors: { cursor: "No card has that id" } });
  }
  const like = `%${input.search.replace(/[\\%_]/g, "\\$&")}%`;
  const ids = await ctx.db.$queryRaw<{ id: string }[]>`
    SELECT id FROM price_cards
    WHERE (${input.search} = '' OR provider ILIKE ${like} OR model ILIKE ${like}
           OR array_to_string(aliases, ' ') ILIKE ${like}
           OR (provider || '/' || model) ILIKE ${like})
      AND (${after === null} OR (provider, model) > (${after?.provider ?? ""}, ${after?.model ?? ""}))
    ORDER BY provider, model
    LIMIT ${input.limit + 1}`;
  const page = ids.slice(0, input.limit).map((r) => r.id);
  const rows = await ctx.db.priceCard.findMany({
    where: { id: { in: page } },
    orderBy: [{ provider: "asc" }, { model: "asc" }],
  });
  return {
    items: rows.map(toDto),
    nextCursor: ids.length > input.limit ? (page[page.length - 1] ?? null) : null,
  };
}
