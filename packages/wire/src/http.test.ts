import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayContainBadText, parseJsonBody } from "./http";

// What the check must find: the escapes of NUL and of any surrogate (a lone one among them).
const needles = ["\\u0000", "\\ud", "\\uD"].map((n) => Buffer.from(n));
const reference = (b: Buffer) => needles.some((n) => b.indexOf(n) >= 0);

describe("mayContainBadText", () => {
  it("answers exactly whether the raw JSON holds a NUL or surrogate escape", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom("\\u0000", "\\ud83d\\ude00", "\\uDC00", "\\u00e9", "\\u", "\\\\u0000", "u0000", "\\"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.boolean(), (pieces, plain) => {
        const buf = Buffer.from(JSON.stringify({ v: pieces.join("") }).replace(/\\\\/g, "\\"));
        // Also as a plain Uint8Array view into a larger buffer, as a fetch body arrives.
        const big = Buffer.concat([Buffer.from("xx"), buf]);
        const bytes = plain ? new Uint8Array(big.buffer, big.byteOffset + 2, buf.length) : buf;
        expect(mayContainBadText(bytes)).toBe(reference(buf));
      }),
      { numRuns: 5_000 },
    );
    expect(mayContainBadText(Buffer.from('{"a":"b"}'))).toBe(false);
    expect(mayContainBadText(Buffer.from('{"a":"\\u0000"}'))).toBe(true);
    expect(mayContainBadText(Buffer.from('{"a":"\\uD800"}'))).toBe(true);
    expect(mayContainBadText(Buffer.from('{"a":"\\u00e9"}'))).toBe(false);
  });
});

describe("parseJsonBody", () => {
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  // What it has always done: fatal UTF-8 decoding (a leading BOM dropped), blank = undefined.
  const reference = (bytes: Uint8Array) => {
    if (bytes.byteLength === 0) return { value: undefined };
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return { error: "SyntaxError invalid UTF-8" };
    }
    if (text.trim() === "") return { value: undefined };
    try {
      return { value: JSON.parse(text) };
    } catch (e) {
      return { error: `${(e as Error).name} ${(e as Error).message}` };
    }
  };
  const outcome = (bytes: Uint8Array) => {
    try {
      return { value: parseJsonBody(bytes) };
    } catch (e) {
      return { error: `${(e as Error).name} ${(e as Error).message}` };
    }
  };

  it("reads every body exactly as the fatal UTF-8 decoder does", () => {
    const text = fc.oneof(
      fc.json(),
      fc.string(),
      fc.string({ unit: "grapheme" }),
      fc.constantFrom("", " ", "\t\n", "\u00a0", "\ufeff{}", '{"a":"é"}', '"\u2028"', "{\u3000}"),
    );
    const bytes = fc.oneof(
      text.map((t) => Buffer.from(t)),
      text.map((t) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t)])),
      fc.uint8Array({ maxLength: 24 }).map((a) => Buffer.from(a)),
      // Invalid UTF-8: lone continuation bytes, overlongs, encoded surrogates, truncated sequences.
      fc
        .constantFrom([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x7b, 0xff, 0x7d])
        .map((a) => Buffer.from(a)),
    );
    fc.assert(
      fc.property(bytes, fc.boolean(), (b, view) => {
        // Also as a Uint8Array view into a larger buffer, as a fetch body can arrive.
        const big = Buffer.concat([Buffer.from("xyz"), b]);
        const input = view ? new Uint8Array(big.buffer, big.byteOffset + 3, b.length) : b;
        expect(outcome(input)).toEqual(reference(b));
      }),
      { numRuns: 10_000 },
    );
  });
});
