import { type AuthenticatedKey, isStorableText } from "@breakwater/core";

/**
 * The part of a fetch `Request` the handlers use. A real `Request` satisfies it; the lean Node
 * server passes a lighter object with the same surface (building a full Request per call costs
 * more than the rest of a warm budget check).
 */
export interface WireRequest {
  readonly method: string;
  /** Absolute URL or origin-relative path. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body?: ReadableStream<Uint8Array> | null;
  /** Lean-server fast path: the whole body, or null when it exceeded `limit` bytes. */
  readBody?(limit: number): Promise<Uint8Array | null>;
  /**
   * The key the router already judged from the `Authorization` header (set by the router before
   * the handler runs), so the gate does not parse and look it up a second time.
   */
  authed?: AuthenticatedKey | Promise<AuthenticatedKey | null>;
}

/** The path of a request URL (no query string), without allocating a URL object. */
export function pathOf(url: string): string {
  let start = 0;
  const scheme = url.indexOf("://");
  if (scheme >= 0) {
    start = url.indexOf("/", scheme + 3);
    if (start < 0) return "/";
  }
  const q = url.indexOf("?", start);
  const h = url.indexOf("#", start);
  let end = url.length;
  if (q >= 0) end = q;
  if (h >= 0 && h < end) end = h;
  return url.slice(start, end) || "/";
}

/**
 * Reads the request body: the bytes, or null past `limit` bytes (refused without buffering more).
 * The lean server hands over the whole body in one promise, no async frame and no extra hop.
 */
export function readBody(req: WireRequest, limit: number): Promise<Uint8Array | null> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return Promise.resolve(null);
  if (req.readBody) return req.readBody(limit);
  return readStream(req, limit);
}

async function readStream(req: WireRequest, limit: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Parses a JSON body; `undefined` for an empty body, throws SyntaxError on invalid JSON/UTF-8. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new SyntaxError("invalid UTF-8");
  }
  if (text.trim() === "") return undefined;
  return JSON.parse(text);
}

const U_ESCAPE = Buffer.from("\\u");
const NUL_ESCAPE = Buffer.from("\\u0000");
const SURROGATE_ESCAPES = [Buffer.from("\\ud"), Buffer.from("\\uD")];

/**
 * True when the raw JSON may carry text Postgres cannot store: NUL, or a lone UTF-16 surrogate.
 * JSON can only express either through a \u escape, so the common body costs one byte scan.
 */
export function mayContainBadText(bytes: Uint8Array): boolean {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Every escape in question starts with \u: most bodies have none, and then one scan answers.
  if (b.indexOf(U_ESCAPE) < 0) return false;
  return b.indexOf(NUL_ESCAPE) >= 0 || SURROGATE_ESCAPES.some((e) => b.indexOf(e) >= 0);
}

const badText = (s: string) => !isStorableText(s);

/**
 * The location of the first string (value or key) holding NUL or a lone surrogate, or null.
 * Postgres text and jsonb cannot store them, so such input must be refused before it reaches a
 * write. `skip` exempts subtrees the endpoint judges itself (an event's tags have their own code).
 */
export function findBadText(
  value: unknown,
  skip?: (path: (string | number)[]) => boolean,
  path: (string | number)[] = [],
): (string | number)[] | null {
  if (typeof value === "string") return badText(value) ? path : null;
  if (typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = [...path, i];
      if (skip?.(p)) continue;
      const hit = findBadText(value[i], skip, p);
      if (hit) return hit;
    }
    return null;
  }
  for (const k of Object.keys(value)) {
    const p = [...path, k];
    if (skip?.(p)) continue;
    if (badText(k)) return p;
    const hit = findBadText((value as Record<string, unknown>)[k], skip, p);
    if (hit) return hit;
  }
  return null;
}
