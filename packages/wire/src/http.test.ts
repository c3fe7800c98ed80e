import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayContainBadText } from "./http";

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
