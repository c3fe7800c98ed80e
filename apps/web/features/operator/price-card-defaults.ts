// Shared by the card editor (client) and the pages that open it (server): no "use client" here.

import { PROVIDER_IDS } from "@breakwater/core/pricing/providers";

/** ProviderName values of the wire protocol, in spec order (core's list: dependency-free, browser-safe). */
export const PROVIDERS = PROVIDER_IDS;

/** A card as the server sends it (PriceCardDto). */
export interface CardData {
  id?: string;
  updatedAt?: string;
  provider: string;
  model: string;
  aliases?: string[];
  patterns?: string[];
  unit?: string;
  inputPerMtok: string;
  cachedInputPerMtok?: string | null;
  cacheWrite5mPerMtok?: string | null;
  cacheWrite1hPerMtok?: string | null;
  outputPerMtok: string;
  longContext?: {
    threshold: number;
    inputPerMtok: string;
    cachedInputPerMtok: string | null;
    cacheWrite5mPerMtok: string | null;
    cacheWrite1hPerMtok: string | null;
    outputPerMtok: string;
  } | null;
  unitPrices?: Record<string, string>;
  regionMultipliers?: Record<string, string>;
  tierMultipliers?: Record<string, string>;
  notes?: string | null;
  source: string;
  sourceDate: string;
}

/** Today in UTC as YYYY-MM-DD. */
export const today = () => new Date().toISOString().slice(0, 10);

/** A blank card for "Add card", or one prefilled from an unpriced model. */
export function blankCard(provider: string | undefined, model: string | undefined): CardData {
  return {
    provider: provider && (PROVIDERS as readonly string[]).includes(provider) ? provider : "openai",
    model: model ?? "",
    inputPerMtok: "",
    outputPerMtok: "",
    source: "",
    sourceDate: today(),
  };
}
