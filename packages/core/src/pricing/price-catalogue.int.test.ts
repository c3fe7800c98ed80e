import { randomBytes } from "node:crypto";
import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { createRedisClient, type RedisClient, RedisPubSub } from "@breakwater/queue";
import { afterAll, describe, expect, it, vi } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { computePriceHints } from "./compute-price-hints";
import { costOfCall } from "./cost-of-call";
import { loadPriceCatalogue, priceCardFromRow } from "./load-price-catalogue";
import type { PriceCardInput } from "./price-card";
import { PriceCatalogue } from "./price-catalogue";
import {
  PriceCatalogueHolder,
  publishPriceCatalogueChange,
  subscribeToPriceCatalogueChanges,
} from "./price-catalogue-holder";
import type { ProviderId } from "./providers";
import { canonicalCard, seedPriceCatalogue } from "./seed-price-catalogue";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const redisClients: RedisClient[] = [];
const pubsubs: RedisPubSub[] = [];
const pubsub = () => {
  const p = new RedisPubSub({ target: config });
  pubsubs.push(p);
  return p;
};
const redis = () => {
  const r = createRedisClient(config, "publisher");
  redisClients.push(r);
  return r;
};
afterAll(async () => {
  await Promise.all(redisClients.map((r) => r.quit()));
  await Promise.all(pubsubs.map((p) => p.close()));
  await db.$disconnect();
});

const suffix = () => randomBytes(4).toString("hex");

function syntheticCard(model: string, input: string, output: string): PriceCardInput {
  // openai_compatible has no seed cards, so these never collide with the shared catalogue.
  return {
    provider: "openai_compatible",
    model,
    aliases: [`${model}-2026-01-01`],
    inputPerMtok: input,
    cachedInputPerMtok: "0.1",
    cacheWrite5mPerMtok: null,
    cacheWrite1hPerMtok: null,
    outputPerMtok: output,
    longContext: {
      threshold: 1000,
      inputPerMtok: "2",
      cachedInputPerMtok: null,
      cacheWrite5mPerMtok: null,
      cacheWrite1hPerMtok: null,
      outputPerMtok: "20",
    },
    tierMultipliers: { priority: "1.75" },
    source: "https://example.test/pricing",
    sourceDate: "2026-11-30",
  };
}

describe("price catalogue in Postgres", () => {
  it("seeds idempotently and loads back the same answers as the in-memory seed", async () => {
    await seedPriceCatalogue(db);
    const again = await seedPriceCatalogue(db);
    expect(again.created).toBe(0);
    expect(again.refreshed).toBe(0);

    const loaded = await loadPriceCatalogue(db);
    const memory = PriceCatalogue.fromCards(SEED_PRICE_CARDS);
    expect(loaded.rejected).toEqual([]);

    const rows = await db.priceCard.findMany({
      where: { OR: SEED_PRICE_CARDS.map((c) => ({ provider: c.provider, model: c.model })) },
    });
    expect(rows).toHaveLength(SEED_PRICE_CARDS.length);
    for (const row of rows) {
      if (row.updatedById !== null) continue; // an operator's edit is theirs to keep
      const seed = SEED_PRICE_CARDS.find(
        (c) => c.provider === row.provider && c.model === row.model,
      ) as PriceCardInput;
      expect(canonicalCard(priceCardFromRow(row)), `${row.provider}/${row.model}`).toBe(canonicalCard(seed));
    }

    const calls: [ProviderId, string][] = [
      ["openai", "gpt-5.5"],
      ["anthropic", "claude-sonnet-4-5-20250929"],
      ["bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
      ["google", "gemini-2.5-pro"],
      ["deepseek", "deepseek-chat"],
      ["openrouter", "openai/gpt-5"],
    ];
    const edited = new Set(rows.filter((r) => r.updatedById !== null).map((r) => `${r.provider}:${r.model}`));
    for (const [p, m] of calls) {
      const a = loaded.resolve(p, m);
      const b = memory.resolve(p, m);
      if (!b || edited.has(`${b.card.provider}:${b.card.model}`)) continue;
      for (const t of [
        { input_tokens: 1_000, output_tokens: 500 },
        { input_tokens: 300_000, cached_input_tokens: 100_000, output_tokens: 4_000 },
      ]) {
        expect(costOfCall(a as NonNullable<typeof a>, t, { serviceTier: "flex" }), `${p}/${m}`).toEqual(
          costOfCall(b, t, { serviceTier: "flex" }),
        );
      }
    }
    const chain = {
      provider: "openai" as const,
      model: "gpt-5.5",
      fallbackProviders: ["anthropic", "ollama"] as ProviderId[],
      fallbackModels: ["claude-sonnet-4-5", "llama3"],
      estimatedInputTokens: 1000,
    };
    expect(computePriceHints(loaded, chain)).toEqual(computePriceHints(memory, chain));
  });

  it("refreshes a card nobody edited and never overwrites an operator's edit", async () => {
    const model = `bw-test-${suffix()}`;
    expect(await seedPriceCatalogue(db, [syntheticCard(model, "1", "10")])).toMatchObject({ created: 1 });
    expect(await seedPriceCatalogue(db, [syntheticCard(model, "1.00", "10.0")])).toMatchObject({
      created: 0,
      unchanged: 1,
    });
    expect(await seedPriceCatalogue(db, [syntheticCard(model, "1.5", "10")])).toMatchObject({ refreshed: 1 });

    const row = await db.priceCard.findUniqueOrThrow({
      where: { provider_model: { provider: "openai_compatible", model } },
    });
    expect(row.inputPerMtok.toFixed()).toBe("1.5");
    expect(row.longCacheWrite5mPerMtok).toBeNull();
    await db.priceCard.update({
      where: { id: row.id },
      data: { inputPerMtok: "0.9", updatedById: "user_operator" },
    });

    expect(await seedPriceCatalogue(db, [syntheticCard(model, "2", "10")])).toMatchObject({
      keptOperatorEdits: 1,
      refreshed: 0,
    });
    const kept = await db.priceCard.findUniqueOrThrow({ where: { id: row.id } });
    expect(kept.inputPerMtok.toFixed()).toBe("0.9");

    const loaded = await loadPriceCatalogue(db);
    const resolved = loaded.resolve("openai_compatible", `${model}-2026-01-01`);
    // 100 in × $0.9/M + 10 out × $10/M = 90 + 100 = 190 µ$
    expect(resolved && costOfCall(resolved, { input_tokens: 100, output_tokens: 10 })?.usd).toBe("0.00019");
    await db.priceCard.delete({ where: { id: row.id } });
  });

  it("re-prices on every replica as soon as an edit is announced over Redis", async () => {
    const model = `bw-test-${suffix()}`;
    const channel = `bw:price-catalogue:test-${suffix()}`;
    await seedPriceCatalogue(db, [syntheticCard(model, "1", "10")]);
    const replicas = await Promise.all(
      [0, 1].map(() => PriceCatalogueHolder.create(() => loadPriceCatalogue(db))),
    );
    const stops = await Promise.all(
      replicas.map((h) => subscribeToPriceCatalogueChanges(pubsub(), h, { channel })),
    );
    const price = (h: PriceCatalogueHolder) =>
      h.current.resolve("openai_compatible", model)?.card.data.inputPerMtok;
    for (const h of replicas) expect(price(h)).toBe("1");

    await db.priceCard.update({
      where: { provider_model: { provider: "openai_compatible", model } },
      data: { inputPerMtok: "4.25", updatedById: "user_operator" },
    });
    const started = Date.now();
    await publishPriceCatalogueChange(redis(), channel);
    await vi.waitFor(() => expect(replicas.map((h) => price(h))).toEqual(replicas.map(() => "4.25")), {
      timeout: 2000,
      interval: 10,
    });
    expect(Date.now() - started).toBeLessThan(1000);

    for (const stop of stops) await stop();
    await db.priceCard.delete({ where: { provider_model: { provider: "openai_compatible", model } } });
  });
});
