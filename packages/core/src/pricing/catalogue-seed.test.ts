import { describe, expect, it } from "vitest";
import { SEED_PRICE_CARDS } from "./catalogue-seed";
import { Dec } from "./decimal";
import { PriceCatalogue } from "./price-catalogue";
import { PROVIDER_IDS } from "./providers";

const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);

describe("seed catalogue", () => {
  it("is valid: every card parses and no provider/model repeats", () => {
    expect(catalogue.rejected).toEqual([]);
    expect(catalogue.size).toBe(SEED_PRICE_CARDS.length);
  });

  it("covers every hosted provider that publishes prices (local lanes need no card)", () => {
    const providers = new Set(catalogue.cards.map((c) => c.provider));
    for (const p of PROVIDER_IDS) {
      if (["ollama", "vllm", "lmstudio", "openai_compatible", "azure_openai", "openrouter"].includes(p))
        continue;
      expect(providers, p).toContain(p);
    }
  });

  it("has no alias that shadows another card or repeats within a provider", () => {
    const seen = new Map<string, string>();
    for (const c of catalogue.cards) {
      for (const id of [c.model, ...c.data.aliases]) {
        const k = `${c.provider}:${id.toLowerCase()}`;
        expect(seen.get(k), `${k} claimed by ${seen.get(k)} and ${c.model}`).toBeUndefined();
        seen.set(k, c.model);
      }
    }
  });

  it("has sane figures: cached ≤ input, long-context rates ≥ standard, https sources, dated", () => {
    for (const c of catalogue.cards) {
      const s = c.standard;
      expect(s.cached.cmp(s.input), `${c.key} cached`).toBeLessThanOrEqual(0);
      if (c.long) {
        for (const k of ["input", "cached", "write5m", "write1h", "output"] as const) {
          expect(c.long[k].cmp(s[k]), `${c.key} long ${k}`).toBeGreaterThanOrEqual(0);
        }
      }
      expect(c.data.source).toMatch(/^https:\/\//);
      expect(c.data.sourceDate).toBe("2026-11-30");
      for (const m of c.tierMultipliers.values()) expect(m.cmp(Dec.ZERO)).toBe(1);
    }
  });

  it("knows the models the SDK contract helpers use", () => {
    expect(catalogue.resolve("openai", "gpt-5.5")?.card.model).toBe("gpt-5.5");
    expect(catalogue.resolve("openai", "no-such-model-for-leases")).toBeNull();
  });
});
