import { randomBytes } from "node:crypto";
import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { createRedisClient, type RedisClient, RedisPubSub } from "@breakwater/queue";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { type Ctx, systemCtx } from "../context";
import { DomainError } from "../errors";
import { computePriceHints } from "./compute-price-hints";
import { explainPriceHints } from "./explain-price-hints";
import { loadLivePriceCatalogue } from "./load-price-catalogue";
import { createPriceCard, getPriceCard, listPriceCards, updatePriceCard } from "./manage-price-cards";
import type { PriceCardFieldsInput } from "./price-card-input";
import { PriceCatalogueHolder, subscribeToPriceCatalogueChanges } from "./price-catalogue-holder";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const log = pino({ level: "silent" });
const clients: RedisClient[] = [];
const redis = () => {
  const r = createRedisClient(config, "publisher");
  clients.push(r);
  return r;
};
const pubsubs: RedisPubSub[] = [];
const pubsub = () => {
  const p = new RedisPubSub({ target: config });
  pubsubs.push(p);
  return p;
};
const publisher = redis();
const sys = systemCtx({ db, config, log, redis: publisher }, "price-cards-test");
const operator: Ctx = {
  ...sys,
  actor: { type: "user", userId: "user_price_test_operator", isOperator: true },
};
const member: Ctx = { ...sys, actor: { type: "user", userId: "user_price_test_member", isOperator: false } };
afterAll(async () => {
  await Promise.all(clients.map((r) => r.quit()));
  await Promise.all(pubsubs.map((p) => p.close()));
  await db.$disconnect();
});

const tag = () => randomBytes(4).toString("hex");

function card(model: string, extra: Partial<PriceCardFieldsInput> = {}): PriceCardFieldsInput {
  // openai_compatible has no seed cards, so nothing collides with the shared catalogue.
  return {
    provider: "openai_compatible",
    model,
    aliases: [],
    patterns: [],
    inputPerMtok: "1.00",
    cachedInputPerMtok: "0.10",
    cacheWrite5mPerMtok: null,
    cacheWrite1hPerMtok: null,
    outputPerMtok: "4.00",
    longContext: null,
    regionMultipliers: {},
    tierMultipliers: {},
    unitPrices: {},
    notes: null,
    source: "https://example.test/pricing",
    sourceDate: "2026-11-30",
    ...extra,
  };
}

async function fieldErrors(p: Promise<unknown>): Promise<Record<string, string>> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe("INVALID");
  return ((err as DomainError).details?.fieldErrors ?? {}) as Record<string, string>;
}

describe("price card editing", () => {
  it("refuses bad cards field by field and writes nothing", async () => {
    const model = `val-${tag()}`;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await fieldErrors(createPriceCard(operator, card(model, { inputPerMtok: "-1" })))).toMatchObject({
      inputPerMtok: "A rate cannot be negative",
    });
    expect(
      await fieldErrors(
        createPriceCard(
          operator,
          card(model, {
            longContext: {
              threshold: 200_000,
              inputPerMtok: "0.50",
              outputPerMtok: null,
              cachedInputPerMtok: null,
              cacheWrite5mPerMtok: null,
              cacheWrite1hPerMtok: null,
            },
          }),
        ),
      ),
    ).toEqual({
      "longContext.outputPerMtok": "A long-context bracket needs its output rate",
      "longContext.inputPerMtok":
        "Overlaps the standard bracket: a long-context rate cannot be below the standard rate",
    });
    expect(
      await fieldErrors(
        createPriceCard(operator, card(model, { longContext: { inputPerMtok: "2", outputPerMtok: "8" } })),
      ),
    ).toEqual({ "longContext.threshold": "A long-context bracket needs its threshold" });
    expect(
      await fieldErrors(createPriceCard(operator, card(model, { tierMultipliers: { turbo: "2" } }))),
    ).toMatchObject({ "tierMultipliers.turbo": expect.stringContaining("Unknown service tier") });
    expect(await fieldErrors(createPriceCard(operator, card(model, { sourceDate: tomorrow })))).toEqual({
      sourceDate: "The source date cannot be in the future",
    });
    const bad = await fieldErrors(
      createPriceCard(operator, card(model, { patterns: ["^(a+)+$", "([a-z]", "x".repeat(201)] })),
    );
    expect(bad).toEqual({
      "patterns.0": "Nested quantifiers can take exponential time: simplify the pattern",
      "patterns.1": "Not a valid regular expression",
      "patterns.2": "At most 200 characters",
    });
    expect(await db.priceCard.count({ where: { model } })).toBe(0);
  });

  it("refuses an alias or pattern that another card already answers to", async () => {
    const a = `col-${tag()}`;
    await createPriceCard(operator, card(a, { aliases: [`${a}-v1`] }));
    const b = `other-${tag()}`;
    expect(await fieldErrors(createPriceCard(operator, card(b, { aliases: [`${a}-V1`] })))).toEqual({
      "aliases.0": `Collides with the card openai_compatible/${a}`,
    });
    expect(await fieldErrors(createPriceCard(operator, card(b, { patterns: [`^${a}`] })))).toEqual({
      "patterns.0": `Matches ${a}, an id of the card openai_compatible/${a}`,
    });
    expect(await fieldErrors(createPriceCard(operator, card(`${a}-v1`)))).toEqual({
      model: `Already an id of the card openai_compatible/${a}`,
    });
    expect(await db.priceCard.count({ where: { model: b } })).toBe(0);
  });

  it("is for operators only", async () => {
    const err = await createPriceCard(member, card(`m-${tag()}`)).catch((e: unknown) => e);
    expect((err as DomainError).code).toBe("FORBIDDEN");
    expect(((await listPriceCards(member, {}).catch((e: unknown) => e)) as DomainError).code).toBe(
      "FORBIDDEN",
    );
  });

  it("audits every edit with before and after, refuses stale edits, and searches by alias", async () => {
    const model = `aud-${tag()}`;
    const created = await createPriceCard(operator, card(model, { aliases: [`${model}-snap`] }));
    const updated = await updatePriceCard(operator, {
      id: created.id,
      expectedUpdatedAt: created.updatedAt,
      card: card(model, { aliases: [`${model}-snap`], inputPerMtok: "1.50" }),
    });
    expect(updated.inputPerMtok).toBe("1.5");
    expect(updated.updatedById).toBe("user_price_test_operator");
    const stale = await updatePriceCard(operator, {
      id: created.id,
      expectedUpdatedAt: created.updatedAt,
      card: card(model, { inputPerMtok: "9" }),
    }).catch((e: unknown) => e);
    expect((stale as DomainError).code).toBe("CONFLICT");
    expect((await getPriceCard(operator, created.id)).inputPerMtok).toBe("1.5");

    const audits = await db.auditEvent.findMany({
      where: { targetType: "price_card", targetId: created.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => a.action)).toEqual(["price_card.created", "price_card.updated"]);
    expect(audits[1]).toMatchObject({
      actorType: "operator",
      actorId: "user_price_test_operator",
      before: expect.objectContaining({ inputPerMtok: "1" }),
      after: expect.objectContaining({ inputPerMtok: "1.5" }),
    });
    const page = await listPriceCards(operator, { search: `${model}-SNAP` });
    expect(page.items.map((c) => c.id)).toEqual([created.id]);
  });

  it("keyset-pages the catalogue without gaps or repeats", async () => {
    const prefix = `page-${tag()}`;
    for (let i = 0; i < 5; i++) await createPriceCard(operator, card(`${prefix}-${i}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listPriceCards>> = await listPriceCards(operator, {
        search: prefix,
        limit: 2,
        cursor,
      });
      seen.push(...page.items.map((c) => c.model));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => `${prefix}-${i}`));
  });

  it("an edit reaches a second replica's catalogue within 1 s, and its next hints change", async () => {
    const model = `hint-${tag()}`;
    const created = await createPriceCard(operator, card(model, { inputPerMtok: "1", outputPerMtok: "1" }));
    const fallback = `hint-fb-${tag()}`;
    await createPriceCard(
      operator,
      card(fallback, { provider: "fireworks", inputPerMtok: "2", outputPerMtok: "2" }),
    );
    const load = () => loadLivePriceCatalogue(db);
    const holders = [await PriceCatalogueHolder.create(load), await PriceCatalogueHolder.create(load)];
    for (const h of holders) await subscribeToPriceCatalogueChanges(pubsub(), h, { log });
    const chain = {
      provider: "openai_compatible" as const,
      model,
      fallbackProviders: ["fireworks" as const],
      fallbackModels: [fallback],
      estimatedInputTokens: 100,
    };
    const before = computePriceHints(holders[1]!.current, chain);
    expect(before).toEqual({ openai_compatible: 1, fireworks: 2 });

    const started = Date.now();
    await updatePriceCard(operator, {
      id: created.id,
      expectedUpdatedAt: created.updatedAt,
      card: card(model, { inputPerMtok: "100", outputPerMtok: "100" }),
    });
    const sawIt = async (h: PriceCatalogueHolder) => {
      while (h.current.get("openai_compatible", model)?.data.inputPerMtok !== "100") {
        if (Date.now() - started > 1000) throw new Error("the edit did not arrive within 1 s");
        await new Promise((r) => setTimeout(r, 10));
      }
      return Date.now() - started;
    };
    const took = await Promise.all(holders.map(sawIt));
    expect(Math.max(...took)).toBeLessThan(1000);
    const after = computePriceHints(holders[1]!.current, chain);
    expect(after).toEqual({ openai_compatible: 50, fireworks: 1 });
    // The explainer answers from the same function as the hot path.
    const explained = await explainPriceHints(operator, chain);
    expect(explained.priceHints).toEqual(after);
    expect(explained.entries[0]).toMatchObject({
      card: { id: created.id, model },
      matched: { via: "exact" },
      bracket: { kind: "standard" },
      rates: { inputPerMtok: "100", outputPerMtok: "100" },
      decidesHint: true,
    });
  });
});
