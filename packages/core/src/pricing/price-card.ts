import { z } from "zod";
import { Dec } from "./decimal";
import { PROVIDER_IDS, type ProviderId } from "./providers";

// A price card as stored (DB row, seed entry, operator edit): rates are decimal strings in USD
// per million tokens so nothing is lost between the provider's page, Postgres and the math.

/** How a card bills: per token (the rates) or per media unit (unitPrices). */
export const PRICE_UNITS = ["token", "image", "second", "minute", "mchar"] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

const decimalString = z
  .string()
  .trim()
  .refine((s) => Dec.isDecimal(s) && !Dec.from(s).isNegative(), "must be a non-negative decimal");
const multiplierString = z
  .string()
  .trim()
  .refine((s) => Dec.isDecimal(s) && Dec.from(s).cmp(Dec.ZERO) > 0, "must be a positive decimal");

/** The rates of one context bracket, USD per million tokens. Null cached/write = billed as input. */
export const bracketRatesSchema = z.strictObject({
  inputPerMtok: decimalString,
  cachedInputPerMtok: decimalString.nullable(),
  cacheWrite5mPerMtok: decimalString.nullable(),
  cacheWrite1hPerMtok: decimalString.nullable(),
  outputPerMtok: decimalString,
});

/** Rates above `threshold` input tokens (input INCLUDES cached reads and writes). */
export const longContextSchema = bracketRatesSchema.extend({
  threshold: z.number().int().positive(),
});

export const priceCardSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_IDS),
    model: z.string().trim().min(1).max(2048),
    aliases: z.array(z.string().trim().min(1).max(2048)).default([]),
    /** Regular expressions (case-insensitive, anchor them yourself) tried after exact ids. */
    patterns: z
      .array(
        z.string().refine((p) => {
          try {
            new RegExp(p, "i");
            return true;
          } catch {
            return false;
          }
        }, "must be a valid regular expression"),
      )
      .default([]),
    unit: z.enum(PRICE_UNITS).default("token"),
    ...bracketRatesSchema.shape,
    longContext: longContextSchema.nullable().default(null),
    /** USD per unit by variant for media units: {"default": "0.04", "hd:1024x1792": "0.12"}. */
    unitPrices: z.record(z.string(), decimalString).default({}),
    /** Multipliers on every rate by region id, or by endpoint scope ("endpoint:geo", "endpoint:in_region"). */
    regionMultipliers: z.record(z.string(), multiplierString).default({}),
    /** Multipliers by service tier ("flex", "priority", "optimized"…), overriding provider defaults. */
    tierMultipliers: z.record(z.string(), multiplierString).default({}),
    source: z.string().trim().min(1),
    sourceDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    notes: z.string().nullable().default(null),
  })
  .superRefine((card, ctx) => {
    if (card.unit !== "token" && Object.keys(card.unitPrices).length === 0) {
      ctx.addIssue({ code: "custom", path: ["unitPrices"], message: "a media-unit card needs unitPrices" });
    }
  });

export type PriceCardInput = z.input<typeof priceCardSchema>;
/** A validated price card (decimal strings, USD per million tokens unless `unit` says otherwise). */
export type PriceCardData = z.output<typeof priceCardSchema> & { provider: ProviderId };
export type BracketRates = z.output<typeof bracketRatesSchema>;
