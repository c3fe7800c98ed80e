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

export class BodyTooLarge extends Error {}

/** Reads the request body, refusing (BodyTooLarge) past `limit` bytes without buffering more. */
export async function readBody(req: WireRequest, limit: number): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new BodyTooLarge();
  if (req.readBody) {
    const bytes = await req.readBody(limit);
    if (bytes === null) throw new BodyTooLarge();
    return bytes;
  }
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
      throw new BodyTooLarge();
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
