import { z } from "zod";
import { Dec } from "./decimal";
import { PRICE_UNITS } from "./price-card";
import { PROVIDER_IDS, SERVICE_TIER_VALUES } from "./providers";

// The operator's card form, validated once here (router and form share it). Stricter than the
// stored-card schema (price-card.ts): what an operator types must be a sensible card, while rows
// already stored keep loading under the looser schema.

/** Longest alias or pattern an operator may enter (a regex this long is already unreadable). */
export const PATTERN_MAX = 200;
/** A long-context threshold above the wire's largest token count could never apply. */
export const THRESHOLD_MAX = 100_000_000;

const rateText = z
  .string({ message: "Enter a rate" })
  .trim()
  .min(1, "Enter a rate")
  .refine((s) => Dec.isDecimal(s), "Enter a number such as 2.50")
  .refine((s) => !Dec.isDecimal(s) || !Dec.from(s).isNegative(), "A rate cannot be negative")
  .refine((s) => !Dec.isDecimal(s) || Dec.from(s).cmp(Dec.from("1000000")) <= 0, "Rate is too large");

/** An optional rate: empty or null = billed at the input rate. */
const optionalRate = z
  .union([z.string(), z.null()])
  .transform((s) => (s === null || s.trim() === "" ? null : s.trim()))
  .pipe(z.union([z.null(), rateText]));

const multiplierText = z
  .string()
  .trim()
  .refine((s) => Dec.isDecimal(s), "Enter a number such as 1.25")
  .refine((s) => !Dec.isDecimal(s) || Dec.from(s).cmp(Dec.ZERO) > 0, "A multiplier must be above 0")
  .refine((s) => !Dec.isDecimal(s) || Dec.from(s).cmp(Dec.from("100")) <= 0, "Multiplier is too large");

const TIER_SET: ReadonlySet<string> = new Set(SERVICE_TIER_VALUES);
const REGION_KEY_RE = /^(?:[a-z]{2,6}(?:-[a-z0-9]{1,16}){1,4}|endpoint:(?:global|geo|in_region))$/;

/**
 * Why `pattern` may not be used as a card pattern, or null when it is fine: it must compile, stay
 * short, and avoid the shapes that backtrack exponentially on a hostile id — a quantified group
 * that itself contains a quantifier (`(a+)+`, `(\w*)*`, `(x{2,})+`) or alternatives under a
 * quantifier (`(a|aa)*`), and backreferences. Patterns run on every unknown id on the hot path.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return "A pattern cannot be empty";
  if (pattern.length > PATTERN_MAX) return `At most ${PATTERN_MAX} characters`;
  try {
    new RegExp(pattern, "i");
  } catch {
    return "Not a valid regular expression";
  }
  if (/\\[1-9]|\\k</.test(pattern)) return "Backreferences are not allowed";
  // Walk groups: a group that contains a quantifier or an alternation and is itself quantified.
  const stack: { quantified: boolean; alternation: boolean }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") {
      // Skip a character class (quantifiers inside it are literal).
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") {
        if (pattern[i] === "\\") i++;
        i++;
      }
      continue;
    }
    if (c === "(") {
      stack.push({ quantified: false, alternation: false });
      continue;
    }
    if (c === "|" && stack.length > 0) {
      stack[stack.length - 1]!.alternation = true;
      continue;
    }
    if (c === ")") {
      const group = stack.pop();
      const next = pattern[i + 1];
      const repeated =
        next === "*" ||
        next === "+" ||
        (next === "{" && /^\{\d*,\d*\}|^\{\d{2,}\}/.test(pattern.slice(i + 1)));
      if (group && repeated && (group.quantified || group.alternation))
        return "Nested quantifiers can take exponential time: simplify the pattern";
      // The enclosing group contains a quantifier when this group is quantified or holds one.
      if (stack.length > 0 && (repeated || group?.quantified)) stack[stack.length - 1]!.quantified = true;
      continue;
    }
    if ((c === "*" || c === "+" || c === "?" || c === "{") && stack.length > 0) {
      if (c !== "?" || (pattern[i - 1] !== "(" && pattern[i - 1] !== "*" && pattern[i - 1] !== "+"))
        stack[stack.length - 1]!.quantified = true;
    }
  }
  return null;
}

const idText = z
  .string()
  .trim()
  .min(1, "Cannot be empty")
  .max(PATTERN_MAX, `At most ${PATTERN_MAX} characters`);

const longContextInput = z
  .object({
    threshold: z.union([z.number(), z.null()]).optional(),
    inputPerMtok: optionalRate.optional(),
    cachedInputPerMtok: optionalRate.optional(),
    cacheWrite5mPerMtok: optionalRate.optional(),
    cacheWrite1hPerMtok: optionalRate.optional(),
    outputPerMtok: optionalRate.optional(),
  })
  .nullable()
  .default(null);

/** Today's date in UTC as YYYY-MM-DD. */
function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The operator's card form: every field of a card, checked for sense (see priceCardEditInput). */
export const priceCardFields = z.object({
  provider: z.enum(PROVIDER_IDS, { message: "Choose a provider" }),
  model: z.string().trim().min(1, "Enter the model id").max(2048, "At most 2048 characters"),
  aliases: z.array(idText).max(50, "At most 50 aliases").default([]),
  patterns: z
    .array(z.string())
    .max(20, "At most 20 patterns")
    .default([])
    .superRefine((list, ctx) => {
      list.forEach((p, i) => {
        const problem = patternProblem(p);
        if (problem) ctx.addIssue({ code: "custom", path: [i], message: problem });
      });
    }),
  unit: z.enum(PRICE_UNITS).default("token"),
  inputPerMtok: rateText,
  cachedInputPerMtok: optionalRate.default(null),
  cacheWrite5mPerMtok: optionalRate.default(null),
  cacheWrite1hPerMtok: optionalRate.default(null),
  outputPerMtok: rateText,
  longContext: longContextInput,
  unitPrices: z.record(z.string().trim().min(1).max(64), rateText).default({}),
  regionMultipliers: z
    .record(z.string(), multiplierText)
    .default({})
    .superRefine((rec, ctx) => {
      for (const k of Object.keys(rec))
        if (!REGION_KEY_RE.test(k))
          ctx.addIssue({
            code: "custom",
            path: [k],
            message: "A region id such as eu-west-1, or endpoint:global / endpoint:geo / endpoint:in_region",
          });
    }),
  tierMultipliers: z
    .record(z.string(), multiplierText)
    .default({})
    .superRefine((rec, ctx) => {
      for (const k of Object.keys(rec))
        if (!TIER_SET.has(k))
          ctx.addIssue({
            code: "custom",
            path: [k],
            message: `Unknown service tier (known: ${SERVICE_TIER_VALUES.join(", ")})`,
          });
    }),
  notes: z
    .union([z.string(), z.null()])
    .transform((s) => (s === null || s.trim() === "" ? null : s.trim()))
    .pipe(z.union([z.null(), z.string().max(2000, "At most 2000 characters")]))
    .default(null),
  source: z
    .string({ message: "Enter the source page" })
    .trim()
    .min(1, "Enter the source page")
    .max(500)
    .refine((s) => /^https?:\/\/[^\s]+$/.test(s), "The source must be an http(s) URL"),
  sourceDate: z
    .string({ message: "Enter the date the price was read" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "A date as YYYY-MM-DD")
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "Not a real date")
    .refine((s) => s <= todayUtc(), "The source date cannot be in the future"),
});

export type PriceCardFieldsInput = z.input<typeof priceCardFields>;

/** The validated card the form describes, bracket checked: long-context is all or nothing, and above standard. */
export const priceCardEditInput = priceCardFields
  .superRefine((card, ctx) => {
    const lc = card.longContext;
    if (card.unit !== "token" && Object.keys(card.unitPrices).length === 0)
      ctx.addIssue({ code: "custom", path: ["unitPrices"], message: "A media-unit card needs a unit price" });
    if (!lc) return;
    const any =
      lc.threshold != null ||
      lc.inputPerMtok != null ||
      lc.outputPerMtok != null ||
      lc.cachedInputPerMtok != null ||
      lc.cacheWrite5mPerMtok != null ||
      lc.cacheWrite1hPerMtok != null;
    if (!any) return;
    if (lc.threshold == null)
      ctx.addIssue({
        code: "custom",
        path: ["longContext", "threshold"],
        message: "A long-context bracket needs its threshold",
      });
    else if (!Number.isInteger(lc.threshold) || lc.threshold < 1 || lc.threshold > THRESHOLD_MAX)
      ctx.addIssue({
        code: "custom",
        path: ["longContext", "threshold"],
        message: `A whole number of input tokens, 1 to ${THRESHOLD_MAX.toLocaleString("en-US")}`,
      });
    if (lc.inputPerMtok == null)
      ctx.addIssue({
        code: "custom",
        path: ["longContext", "inputPerMtok"],
        message: "A long-context bracket needs its input rate",
      });
    if (lc.outputPerMtok == null)
      ctx.addIssue({
        code: "custom",
        path: ["longContext", "outputPerMtok"],
        message: "A long-context bracket needs its output rate",
      });
    // Brackets partition the input size: above the threshold the long rates replace the standard
    // ones for the whole request. Long rates below standard ones would make the two brackets
    // overlap in price (a bigger request cheaper than a smaller one) — always a typo or swapped rows.
    const below = (long: string | null | undefined, std: string | null) =>
      long != null &&
      std != null &&
      Dec.isDecimal(long) &&
      Dec.isDecimal(std) &&
      Dec.from(long).cmp(Dec.from(std)) < 0;
    for (const [k, std] of [
      ["inputPerMtok", card.inputPerMtok],
      ["outputPerMtok", card.outputPerMtok],
      ["cachedInputPerMtok", card.cachedInputPerMtok],
      ["cacheWrite5mPerMtok", card.cacheWrite5mPerMtok],
      ["cacheWrite1hPerMtok", card.cacheWrite1hPerMtok],
    ] as const) {
      if (below(lc[k], std))
        ctx.addIssue({
          code: "custom",
          path: ["longContext", k],
          message: "Overlaps the standard bracket: a long-context rate cannot be below the standard rate",
        });
    }
  })
  .transform((card) => {
    const lc = card.longContext;
    const complete = lc && lc.threshold != null && lc.inputPerMtok != null && lc.outputPerMtok != null;
    return {
      ...card,
      aliases: [...new Set(card.aliases)],
      patterns: [...new Set(card.patterns)],
      longContext: complete
        ? {
            threshold: lc.threshold as number,
            inputPerMtok: lc.inputPerMtok as string,
            cachedInputPerMtok: lc.cachedInputPerMtok ?? null,
            cacheWrite5mPerMtok: lc.cacheWrite5mPerMtok ?? null,
            cacheWrite1hPerMtok: lc.cacheWrite1hPerMtok ?? null,
            outputPerMtok: lc.outputPerMtok as string,
          }
        : null,
    };
  });

export type PriceCardEdit = z.output<typeof priceCardEditInput>;

/** Create: a card for a provider/model pair that has none yet. */
export const createPriceCardInput = priceCardEditInput;

/** Update: the card id, the updatedAt the editor opened (stale edits are refused), and the full card. */
export const updatePriceCardInput = z.object({
  id: z.string().min(1),
  expectedUpdatedAt: z.string().min(1),
  card: z.unknown(),
});

export const listPriceCardsInput = z.object({
  search: z.string().trim().max(200).default(""),
  /** Keyset cursor: the last card's id of the previous page. */
  cursor: z.string().nullish(),
  limit: z.number().int().min(1).max(100).default(50),
});
