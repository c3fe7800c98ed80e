/**
 * One-dimensional Postgres arrays in the binary wire format (what `array_recv` reads), for the
 * ingest insert's column parameters. The pg driver sends a Buffer parameter as binary, so Postgres
 * skips `array_in`'s character-by-character parse and each element's text input function (a
 * timestamptz or uuid read from text is the costliest of them) — and Node skips quoting and
 * escaping every element into an array literal.
 *
 * Layout: int32 ndim, int32 has-null flag, int32 element type OID, then per dimension int32 length
 * and int32 lower bound (1); then per element int32 byte length (-1 for NULL) and the element's
 * binary form.
 */

export type BinaryElement = "int4" | "bool" | "uuid" | "timestamptz" | "text" | "jsonb";

const ELEMENT_OID: Record<BinaryElement, number> = {
  int4: 23,
  bool: 16,
  uuid: 2950,
  timestamptz: 1184,
  text: 25,
  jsonb: 3802,
};
const FIXED_SIZE: Partial<Record<BinaryElement, number>> = { int4: 4, bool: 1, uuid: 16, timestamptz: 8 };

/** Microseconds from the Unix epoch to Postgres's (2000-01-01T00:00:00Z). */
const PG_EPOCH_MICROS = 946_684_800_000_000;
const PG_EPOCH_MICROS_BIG = 946_684_800_000_000n;
const TWO_32 = 4_294_967_296;
// Hex digit values of the ASCII characters; 255 marks one that is not a hex digit.
const HEX = new Uint8Array(128).fill(255);
for (let d = 0; d < 10; d++) HEX[48 + d] = d;
for (let d = 0; d < 6; d++) {
  HEX[65 + d] = 10 + d;
  HEX[97 + d] = 10 + d;
}

function putInt32(buf: Buffer, off: number, v: number): void {
  buf[off] = v >>> 24;
  buf[off + 1] = v >>> 16;
  buf[off + 2] = v >>> 8;
  buf[off + 3] = v;
}

/** Writes a canonical-text UUID's 16 bytes at `off`; false when `v` is not one (nothing else is sent). */
function putUuid(buf: Buffer, off: number, v: string): boolean {
  if (v.length !== 36) return false;
  for (let c = 0; c < 36; c += 2) {
    if (c === 8 || c === 13 || c === 18 || c === 23) {
      if (v.charCodeAt(c) !== 45) return false;
      c++;
    }
    const hi = HEX[v.charCodeAt(c)] ?? 255; // beyond ASCII: undefined
    const lo = HEX[v.charCodeAt(c + 1)] ?? 255;
    if ((hi | lo) > 15) return false;
    buf[off++] = (hi << 4) | lo;
  }
  return true;
}

/** Writes `s` as UTF-8 at `at`; returns the byte count. Short ASCII text is copied byte by byte. */
function putText(buf: Buffer, at: number, s: string): number {
  const len = s.length;
  let c = 0;
  if (len <= 64) {
    for (; c < len; c++) {
      const code = s.charCodeAt(c);
      if (code >= 0x80) break;
      buf[at + c] = code;
    }
    if (c === len) return len;
  }
  return c + buf.write(c === 0 ? s : s.slice(c), at + c, "utf8");
}

/**
 * The binary array of `values` as elements of `type`; null or undefined is SQL NULL. Elements are:
 * int4 — an integer within int32; bool — a boolean; uuid — canonical text; timestamptz —
 * microseconds since the Unix epoch (a safe integer); text and jsonb — a string (jsonb: JSON text).
 * A value of the wrong kind throws (like the text input functions, it never stores something else).
 */
export function pgBinaryArray(type: BinaryElement, values: readonly unknown[]): Buffer {
  const n = values.length;
  const fixed = FIXED_SIZE[type];
  let size = n === 0 ? 12 : 20 + 4 * n;
  let hasNull = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v == null) {
      hasNull = 1;
      continue;
    }
    if (fixed !== undefined) size += fixed;
    else if (typeof v === "string") size += v.length * 3 + 1;
    else throw new TypeError(`${type} array element must be a string`);
  }
  const buf = Buffer.allocUnsafe(size);
  putInt32(buf, 0, n === 0 ? 0 : 1);
  putInt32(buf, 4, hasNull);
  putInt32(buf, 8, ELEMENT_OID[type]);
  if (n === 0) return buf;
  putInt32(buf, 12, n);
  putInt32(buf, 16, 1);
  let off = 20;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v == null) {
      putInt32(buf, off, -1);
      off += 4;
      continue;
    }
    switch (type) {
      case "int4":
        if (typeof v !== "number" || !Number.isInteger(v) || v < -2_147_483_648 || v > 2_147_483_647) {
          throw new RangeError("int4 array element must be an integer within int32");
        }
        putInt32(buf, off, 4);
        putInt32(buf, off + 4, v);
        off += 8;
        break;
      case "bool":
        if (typeof v !== "boolean") throw new TypeError("bool array element must be a boolean");
        putInt32(buf, off, 1);
        buf[off + 4] = v ? 1 : 0;
        off += 5;
        break;
      case "uuid":
        if (typeof v !== "string" || !putUuid(buf, off + 4, v)) {
          throw new TypeError("uuid array element must be a UUID");
        }
        putInt32(buf, off, 16);
        off += 20;
        break;
      case "timestamptz": {
        if (typeof v !== "number" || !Number.isSafeInteger(v)) {
          throw new TypeError("timestamptz array element must be integer microseconds");
        }
        const pg = v - PG_EPOCH_MICROS;
        putInt32(buf, off, 8);
        if (Number.isSafeInteger(pg)) {
          // Exact: the high word is a floor division of a safe integer, the low word what remains.
          const hi = Math.floor(pg / TWO_32);
          putInt32(buf, off + 4, hi);
          putInt32(buf, off + 8, pg - hi * TWO_32);
        } else {
          buf.writeBigInt64BE(BigInt(v) - PG_EPOCH_MICROS_BIG, off + 4);
        }
        off += 12;
        break;
      }
      case "jsonb": {
        buf[off + 4] = 1; // jsonb's binary format version, then the JSON text
        const bytes = 1 + putText(buf, off + 5, v as string);
        putInt32(buf, off, bytes);
        off += 4 + bytes;
        break;
      }
      default: {
        const bytes = putText(buf, off + 4, v as string);
        putInt32(buf, off, bytes);
        off += 4 + bytes;
      }
    }
  }
  return buf.subarray(0, off);
}
