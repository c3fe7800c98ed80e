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
 * Why a tags value is unacceptable, or null when it is a valid tag map (spec §0 bounds). Any key
 * the SDKs accept is a tag key, `constructor`, `toString` and `__proto__` included: tags are read
 * by own property only (here, copyTags, selectors use Object.hasOwn), never through a prototype.
 */
export function tagsProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "tags must be an object";
  // Own keys and own values only, so nothing is looked up through the prototype chain.
  const keys = Object.keys(value);
  if (keys.length > TAGS_MAX_KEYS) return `at most ${TAGS_MAX_KEYS} tags`;
  for (const k of keys) {
    const v = Object.getOwnPropertyDescriptor(value, k)?.value;
    if (k.length < 1 || k.length > TAG_KEY_MAX) return `tag keys must be 1-${TAG_KEY_MAX} characters`;
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
  for (const k of Object.keys(value)) out[k] = Object.getOwnPropertyDescriptor(value, k)?.value;
  return out;
}
