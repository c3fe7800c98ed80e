/**
 * Input rules shared by every edge that accepts request data (the wire schemas, the ingest use
 * case): one copy, so a check request and an ingested event judge tags and text alike.
 */

export const TAGS_MAX_KEYS = 10;
export const TAG_KEY_MAX = 64;
export const TAG_VALUE_MAX = 256;

/**
 * True when Postgres can store the text: no NUL and no unpaired UTF-16 surrogate (JSON can
 * express either through a \u escape; text and jsonb columns refuse both).
 */
export const isStorableText = (s: string): boolean => !s.includes("\u0000") && s.isWellFormed();

/**
 * Tag keys no caller may use: the names of Object.prototype's members (`__proto__` included).
 * A sloppy serializer leaks them into request objects, and any consumer that reads tags with a
 * plain `obj[key]` would resolve them to the prototype, so they are refused at the edge.
 */
const RESERVED_TAG_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Why a tags value is unacceptable, or null when it is a valid tag map (spec §0 bounds). */
export function tagsProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "tags must be an object";
  // Own keys only, so nothing is looked up through the prototype chain.
  const keys = Object.keys(value);
  if (keys.length > TAGS_MAX_KEYS) return `at most ${TAGS_MAX_KEYS} tags`;
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    if (k.length < 1 || k.length > TAG_KEY_MAX) return `tag keys must be 1-${TAG_KEY_MAX} characters`;
    if (RESERVED_TAG_KEYS.has(k))
      return `tag key "${k}" is reserved (the name of an Object.prototype member)`;
    if (typeof v !== "string") return "tag values must be strings";
    if (v.length > TAG_VALUE_MAX) return `tag values must be at most ${TAG_VALUE_MAX} characters`;
    if (k.includes("\u0000") || v.includes("\u0000")) return "tags must not contain NUL";
    if (!k.isWellFormed() || !v.isWellFormed()) return "tags must be valid Unicode text";
  }
  return null;
}

/**
 * A null-prototype copy of a validated tag map: a `__proto__` or `constructor` tag stays an
 * ordinary key and can never reach or resolve to an object's prototype.
 */
export function copyTags(value: Record<string, string>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const k of Object.keys(value)) out[k] = value[k]!;
  return out;
}
