import { Dec } from "./decimal";
import { type PriceCardData, type PriceCardInput, type PriceUnit, priceCardSchema } from "./price-card";
import { isLocalLane, type ProviderId } from "./providers";

/** Rates of one bracket, USD per million tokens, with null cached/write rates already defaulted. */
export interface CompiledRates {
  input: Dec;
  cached: Dec;
  write5m: Dec;
  write1h: Dec;
  output: Dec;
  /** (input + output) USD per token as a float: the price-hint rate. */
  hintRate: number;
  /** The dearest single token of this bracket, USD per token: the lease worst case. */
  maxTokenRate: Dec;
}

/** A card ready for the hot path: decimals parsed once, brackets precomputed. */
export interface CompiledCard {
  /** `provider:model` (lowercase). */
  key: string;
  provider: ProviderId;
  model: string;
  unit: PriceUnit;
  standard: CompiledRates;
  long: (CompiledRates & { threshold: number }) | null;
  unitPrices: ReadonlyMap<string, Dec>;
  regionMultipliers: ReadonlyMap<string, Dec>;
  tierMultipliers: ReadonlyMap<string, Dec>;
  /** Synthetic zero card of a local lane (or a free router variant). */
  zero: boolean;
  data: PriceCardData;
}

/** Where a resolved model is served from; Bedrock prices regional endpoints differently. */
export type EndpointScope = "global" | "geo" | "in_region";

/** A model id matched to a card, with what the id itself says about pricing. */
export interface ResolvedModel {
  card: CompiledCard;
  /** How the id matched: exact id, alias, after normalisation, by pattern, or synthetic. */
  via: "exact" | "alias" | "normalized" | "pattern" | "local_lane" | "free_variant" | "fallback_provider";
  /** Bedrock endpoint scope read from the id (geo prefix / ARN), else null. */
  endpointScope: EndpointScope | null;
  /** The region of a Bedrock ARN, used when the call reports no provider_region. */
  arnRegion: string | null;
}

// Bedrock ids: optional ARN, optional open-ended geo prefix (us., eu., apac., jp., us-gov., global.),
// vendor namespace, model, then a version suffix (-v1:0, -1:0, :0) and maybe a context tag (:200k).
const BEDROCK_ARN_RE = /^arn:aws(?:-[a-z-]+)?:bedrock:([a-z0-9-]*):(\d*):([a-z-]+)\/(.+)$/;
const BEDROCK_GEO_RE = /^([a-z]{2,6}(?:-[a-z]{2,6})?)\.([a-z0-9-]+\..+)$/;
const BEDROCK_VERSION_RE = /(?:-v\d+(?::\d+)?|-\d+:\d+|:\d+)(?::\d+k)?$/;
const DATE8_RE = /-\d{8}$/;
const DATED_SNAPSHOT_RE = /-\d{4}-\d{2}-\d{2}$/;
const VERTEX_VERSION_RE = /@[a-z0-9.-]+$/;

// OpenRouter vendor namespaces → the provider whose card prices the model.
const OPENROUTER_VENDORS: Record<string, ProviderId> = {
  openai: "openai",
  anthropic: "anthropic",
  google: "google",
  "x-ai": "xai",
  xai: "xai",
  deepseek: "deepseek",
  mistralai: "mistral",
  mistral: "mistral",
  qwen: "qwen",
  "z-ai": "zai",
  zai: "zai",
  perplexity: "perplexity",
};

const MEMO_MAX = 10_000;

function sum(...xs: Dec[]): Dec {
  return xs.reduce((a, b) => a.add(b), Dec.ZERO);
}

function maxDec(xs: Dec[]): Dec {
  return xs.reduce((a, b) => (b.cmp(a) > 0 ? b : a), Dec.ZERO);
}

function compileRates(
  r: { input: Dec; output: Dec; cached: Dec | null; write5m: Dec | null; write1h: Dec | null },
  multiplier = Dec.ONE,
): CompiledRates {
  const cached = r.cached ?? r.input;
  const write5m = r.write5m ?? r.input;
  const write1h = r.write1h ?? r.input;
  const perToken = (d: Dec) => d.mul(multiplier).shift(6);
  return {
    input: r.input,
    cached,
    write5m,
    write1h,
    output: r.output,
    hintRate: sum(r.input, r.output).shift(6).toNumber(),
    maxTokenRate: perToken(maxDec([r.input, cached, write5m, write1h, r.output])),
  };
}

const opt = (s: string | null) => (s === null ? null : Dec.from(s));

/** Parses and precomputes one validated card. */
export function compileCard(data: PriceCardData): CompiledCard {
  const input = Dec.from(data.inputPerMtok);
  const standardRaw = {
    input,
    output: Dec.from(data.outputPerMtok),
    cached: opt(data.cachedInputPerMtok),
    write5m: opt(data.cacheWrite5mPerMtok),
    write1h: opt(data.cacheWrite1hPerMtok),
  };
  let long: CompiledCard["long"] = null;
  if (data.longContext) {
    const lc = data.longContext;
    const longInput = Dec.from(lc.inputPerMtok);
    // A long-bracket cache rate the provider did not list scales with the input rate, the way
    // every published long bracket does (Anthropic, Google, OpenAI all move them together).
    const scaled = (explicit: string | null, std: Dec | null): Dec | null => {
      if (explicit !== null) return Dec.from(explicit);
      if (std === null || input.isZero()) return null;
      return std.mul(longInput).divRound(input, 10);
    };
    long = {
      ...compileRates({
        input: longInput,
        output: Dec.from(lc.outputPerMtok),
        cached: scaled(lc.cachedInputPerMtok, standardRaw.cached),
        write5m: scaled(lc.cacheWrite5mPerMtok, standardRaw.write5m),
        write1h: scaled(lc.cacheWrite1hPerMtok, standardRaw.write1h),
      }),
      threshold: lc.threshold,
    };
  }
  const decMap = (rec: Record<string, string>) =>
    new Map(Object.entries(rec).map(([k, v]) => [k.toLowerCase(), Dec.from(v)] as const));
  return {
    key: `${data.provider}:${data.model.toLowerCase()}`,
    provider: data.provider,
    model: data.model,
    unit: data.unit,
    standard: compileRates(standardRaw),
    long,
    unitPrices: decMap(data.unitPrices),
    regionMultipliers: decMap(data.regionMultipliers),
    tierMultipliers: decMap(data.tierMultipliers),
    zero: false,
    data,
  };
}

function zeroCard(provider: ProviderId, model: string, source: string): CompiledCard {
  const data = priceCardSchema.parse({
    provider,
    model,
    inputPerMtok: "0",
    cachedInputPerMtok: null,
    cacheWrite5mPerMtok: null,
    cacheWrite1hPerMtok: null,
    outputPerMtok: "0",
    source,
    sourceDate: "1970-01-01",
  }) as PriceCardData;
  return { ...compileCard(data), zero: true };
}

interface PatternEntry {
  re: RegExp;
  card: CompiledCard;
}

/**
 * The in-memory price catalogue. Exact ids and aliases resolve through a Map (O(1)); normalised
 * forms (dated snapshots, Bedrock ids and ARNs, router ids) are tried next, then patterns; every
 * answer, including "unknown", is memoised so the hot path pays the regex cost once per id.
 * Immutable: an operator edit builds a new catalogue and swaps it in (see PriceCatalogueHolder).
 */
export class PriceCatalogue {
  private readonly exact = new Map<ProviderId, Map<string, { card: CompiledCard; alias: boolean }>>();
  private readonly patterns = new Map<ProviderId, PatternEntry[]>();
  private readonly memo = new Map<string, Map<string, ResolvedModel | null>>();
  private memoSize = 0;
  private readonly localCards = new Map<ProviderId, CompiledCard>();
  private readonly freeCards = new Map<ProviderId, CompiledCard>();
  readonly cards: readonly CompiledCard[];
  /** Cards that failed validation when built from rows (kept out of pricing, reported). */
  readonly rejected: readonly { provider: string; model: string; error: string }[];

  private constructor(cards: CompiledCard[], rejected: { provider: string; model: string; error: string }[]) {
    this.cards = cards;
    this.rejected = rejected;
    for (const card of cards) {
      const byId = this.exact.get(card.provider) ?? new Map();
      this.exact.set(card.provider, byId);
      // A card's own id wins over another card's alias; first alias wins among aliases.
      byId.set(card.model.toLowerCase(), { card, alias: false });
    }
    for (const card of cards) {
      const byId = this.exact.get(card.provider);
      for (const a of card.data.aliases) {
        const k = a.toLowerCase();
        if (byId && !byId.has(k)) byId.set(k, { card, alias: true });
      }
      for (const p of card.data.patterns) {
        const list = this.patterns.get(card.provider) ?? [];
        list.push({ re: new RegExp(p, "i"), card });
        this.patterns.set(card.provider, list);
      }
    }
  }

  /** Builds a catalogue from card inputs (seed entries, operator rows); invalid cards are rejected, not fatal. */
  static fromCards(inputs: readonly (PriceCardInput | PriceCardData)[]): PriceCatalogue {
    const cards: CompiledCard[] = [];
    const rejected: { provider: string; model: string; error: string }[] = [];
    const seen = new Set<string>();
    for (const input of inputs) {
      const parsed = priceCardSchema.safeParse(input);
      if (!parsed.success) {
        rejected.push({
          provider: String(input.provider),
          model: String(input.model),
          error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
        });
        continue;
      }
      const card = compileCard(parsed.data as PriceCardData);
      if (seen.has(card.key)) {
        rejected.push({ provider: card.provider, model: card.model, error: "duplicate provider/model" });
        continue;
      }
      seen.add(card.key);
      cards.push(card);
    }
    return new PriceCatalogue(cards, rejected);
  }

  get size(): number {
    return this.cards.length;
  }

  /** The card stored under exactly this provider and model id (case-insensitive), no normalisation. */
  get(provider: ProviderId, model: string): CompiledCard | undefined {
    const hit = this.exact.get(provider)?.get(model.trim().toLowerCase());
    return hit && !hit.alias ? hit.card : undefined;
  }

  /**
   * The card that prices `model` on `provider`, or null when it is unpriced. Local lanes always
   * resolve to a zero card. Never throws.
   */
  resolve(provider: ProviderId, model: string): ResolvedModel | null {
    // Per provider, then per model id as the caller has it: no composed key to build and hash.
    let byModel = this.memo.get(provider);
    if (byModel === undefined) {
      byModel = new Map();
      this.memo.set(provider, byModel);
    }
    const memo = byModel.get(model);
    if (memo !== undefined) return memo;
    const result = this.resolveUncached(provider, model);
    // Unbounded ids arrive from the wire; a full memo is simply dropped rather than tracked LRU.
    if (this.memoSize >= MEMO_MAX) {
      this.memo.clear();
      this.memoSize = 0;
      this.memo.set(provider, byModel);
      byModel.clear();
    }
    byModel.set(model, result);
    this.memoSize++;
    return result;
  }

  private resolveUncached(provider: ProviderId, rawModel: string): ResolvedModel | null {
    if (isLocalLane(provider)) {
      let card = this.localCards.get(provider);
      if (!card) {
        card = zeroCard(provider, "*", "local lane: runs on the customer's own hardware");
        this.localCards.set(provider, card);
      }
      return { card, via: "local_lane", endpointScope: null, arnRegion: null };
    }
    const model = rawModel.trim().toLowerCase();
    if (model === "") return null;
    if (provider === "openrouter") return this.resolveOpenRouter(model);
    if (provider === "bedrock") return this.resolveBedrock(model);
    const own = this.resolveIn(provider, model);
    if (own) return own;
    // Azure OpenAI lists the same per-token prices as OpenAI for its standard deployments.
    if (provider === "azure_openai") {
      const viaOpenai = this.resolveIn("openai", model);
      if (viaOpenai) return { ...viaOpenai, via: "fallback_provider" };
    }
    return null;
  }

  private resolveIn(
    provider: ProviderId,
    model: string,
    scope: EndpointScope | null = null,
    arnRegion: string | null = null,
  ): ResolvedModel | null {
    const byId = this.exact.get(provider);
    const candidates = normalizedCandidates(model);
    if (byId) {
      for (let i = 0; i < candidates.length; i++) {
        const hit = byId.get(candidates[i] as string);
        if (hit) {
          const via = i > 0 ? "normalized" : hit.alias ? "alias" : "exact";
          return { card: hit.card, via, endpointScope: scope, arnRegion };
        }
      }
    }
    for (const { re, card } of this.patterns.get(provider) ?? []) {
      if (candidates.some((c) => re.test(c)))
        return { card, via: "pattern", endpointScope: scope, arnRegion };
    }
    return null;
  }

  private resolveBedrock(model: string): ResolvedModel | null {
    let id = model;
    let arnRegion: string | null = null;
    let scope: EndpointScope | null = "in_region";
    let opaque = false;
    const arn = BEDROCK_ARN_RE.exec(id);
    if (arn) {
      arnRegion = arn[1] || null;
      id = arn[4] as string;
      // Application inference profiles and provisioned models have opaque ids: only an exact card prices them.
      opaque = arn[3] !== "foundation-model" && arn[3] !== "inference-profile";
      if (opaque) scope = null;
    }
    const geo = opaque ? null : BEDROCK_GEO_RE.exec(id);
    if (geo && !BEDROCK_VENDORS.has(geo[1] as string)) {
      scope = geo[1] === "global" ? "global" : "geo";
      id = geo[2] as string;
    }
    // Operator cards may be keyed by any exact id (an application inference profile ARN, a geo id).
    const direct = this.exact.get("bedrock")?.get(model);
    if (direct)
      return { card: direct.card, via: direct.alias ? "alias" : "exact", endpointScope: scope, arnRegion };
    if (opaque) return null;
    const base = id.replace(BEDROCK_VERSION_RE, "").replace(DATE8_RE, "");
    const hit =
      this.resolveIn("bedrock", base, scope, arnRegion) ?? this.resolveIn("bedrock", id, scope, arnRegion);
    if (!hit) return null;
    return hit.via === "exact" && base !== model ? { ...hit, via: "normalized" } : hit;
  }

  private resolveOpenRouter(model: string): ResolvedModel | null {
    const own = this.resolveIn("openrouter", model);
    if (own) return own;
    const colon = model.lastIndexOf(":");
    const variant = colon > 0 ? model.slice(colon + 1) : "";
    const bare = colon > 0 ? model.slice(0, colon) : model;
    const slash = bare.indexOf("/");
    if (slash <= 0) return null;
    const vendor = OPENROUTER_VENDORS[bare.slice(0, slash)];
    if (!vendor) return null;
    let rest = bare.slice(slash + 1);
    // OpenRouter spells Claude versions with dots (claude-sonnet-4.5); Anthropic uses dashes.
    if (vendor === "anthropic") rest = rest.replace(/(\d)\.(\d)/g, "$1-$2");
    const hit = this.resolveIn(vendor, rest);
    if (!hit) return null;
    if (variant === "free") {
      let card = this.freeCards.get(vendor);
      if (!card) {
        card = zeroCard("openrouter", "*:free", "OpenRouter free variant");
        this.freeCards.set(vendor, card);
      }
      return { card, via: "free_variant", endpointScope: null, arnRegion: null };
    }
    // OpenRouter passes the provider's token prices through (its fee is charged on credit purchases).
    return { ...hit, via: "fallback_provider" };
  }
}

// Bedrock vendor namespaces: "amazon.nova-pro" is vendor.model, never geo-prefix.model.
const BEDROCK_VENDORS: ReadonlySet<string> = new Set([
  "ai21",
  "amazon",
  "anthropic",
  "cohere",
  "deepseek",
  "google",
  "luma",
  "meta",
  "minimax",
  "mistral",
  "moonshot",
  "nvidia",
  "openai",
  "qwen",
  "stability",
  "twelvelabs",
  "writer",
]);

/** The id and its normalised forms, most specific first (dated snapshots, Vertex @versions, `models/`). */
export function normalizedCandidates(model: string): string[] {
  const out: string[] = [model];
  const push = (s: string) => {
    if (s !== "" && !out.includes(s)) out.push(s);
  };
  let m = model;
  if (m.startsWith("models/")) {
    m = m.slice("models/".length);
    push(m);
  }
  if (m.endsWith("[1m]")) {
    m = m.slice(0, -4);
    push(m);
  }
  if (VERTEX_VERSION_RE.test(m)) {
    m = m.replace(VERTEX_VERSION_RE, "");
    push(m);
  }
  if (DATED_SNAPSHOT_RE.test(m)) push(m.replace(DATED_SNAPSHOT_RE, ""));
  if (DATE8_RE.test(m)) push(m.replace(DATE8_RE, ""));
  if (m.endsWith("-latest")) push(m.slice(0, -"-latest".length));
  return out;
}
