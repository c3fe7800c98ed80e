import { parseConfig } from "@breakwater/config";
import fc from "fast-check";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { pgArrayLiteral } from "./ingest-metadata-events";
import { type BinaryElement, pgBinaryArray } from "./pg-binary-array";

const config = parseConfig(process.env);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 });
afterAll(() => pool.end());

const PG_TYPE: Record<BinaryElement, string> = {
  int4: "int",
  bool: "bool",
  uuid: "uuid",
  timestamptz: "timestamptz",
  text: "text",
  jsonb: "jsonb",
};

/** Micros since the Unix epoch → the canonical text the insert used to send. */
function isoOf(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = ((micros % 1_000_000) + 1_000_000) % 1_000_000;
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(frac).padStart(6, "0")}Z`;
}

/**
 * Postgres reads the binary array as exactly the values it reads from the array literal the
 * insert sent before (compared as Postgres's own text output of each array).
 */
async function sameAsLiteral(type: BinaryElement, values: unknown[], literalValues: unknown[] = values) {
  const t = PG_TYPE[type];
  const res = await pool.query<{ b: string; l: string; n: number }>(
    `SELECT $1::${t}[]::text AS b, $2::${t}[]::text AS l, cardinality($1::${t}[]) AS n`,
    [pgBinaryArray(type, values), pgArrayLiteral(literalValues)],
  );
  expect(res.rows[0]!.b).toBe(res.rows[0]!.l);
  expect(res.rows[0]!.n).toBe(values.length);
}

// Short and long (past the byte-by-byte path's 64 characters), ASCII and not, lone surrogates too
// (both forms send them as U+FFFD).
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "Z", '"', "\\", ",", "{", "}", " ", "é", "🚀", "NULL", "\n") }),
  fc.string({
    unit: fc.constantFrom("a", "b", "é", "€", "🚀", "\ud800", "\udfff"),
    minLength: 60,
    maxLength: 140,
  }),
);
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });

describe("pgBinaryArray", () => {
  it("int4, bool, uuid, text and jsonb arrays read back as their array literals", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(nullable(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 })), { maxLength: 40 }),
        fc.array(nullable(fc.boolean()), { maxLength: 40 }),
        fc.array(nullable(fc.uuid()), { maxLength: 40 }),
        fc.array(nullable(text), { maxLength: 40 }),
        fc.array(nullable(fc.jsonValue().map((v) => JSON.stringify(v))), { maxLength: 20 }),
        async (ints, bools, uuids, texts, jsons) => {
          await sameAsLiteral("int4", ints);
          await sameAsLiteral("bool", bools);
          await sameAsLiteral("uuid", uuids);
          await sameAsLiteral("text", texts);
          await sameAsLiteral("jsonb", jsons);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("timestamptz elements keep every microsecond, before and after 2000 and at the safe-integer edges", async () => {
    const edges = [
      0,
      946_684_800_000_000,
      946_684_799_999_999,
      946_684_800_000_001,
      1_796_000_000_123_456,
      -1,
      -8_000_000_000_000_001,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ];
    await sameAsLiteral("timestamptz", edges, edges.map(isoOf));
    await fc.assert(
      fc.asyncProperty(
        fc.array(nullable(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })), {
          maxLength: 40,
        }),
        async (micros) => {
          await sameAsLiteral(
            "timestamptz",
            micros,
            micros.map((m) => (m === null ? null : isoOf(m))),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it("an empty array is an empty array of the type", async () => {
    const res = await pool.query<{ t: string; n: number | null }>(
      "SELECT $1::uuid[]::text AS t, cardinality($1::uuid[]) AS n",
      [pgBinaryArray("uuid", [])],
    );
    expect(res.rows[0]).toEqual({ t: "{}", n: 0 });
  });

  it("refuses a value of the wrong kind instead of storing something else", () => {
    expect(() => pgBinaryArray("int4", [2_147_483_648])).toThrow(RangeError);
    expect(() => pgBinaryArray("int4", [1.5])).toThrow(RangeError);
    expect(() => pgBinaryArray("uuid", ["0000000g-0000-0000-0000-000000000000"])).toThrow(TypeError);
    expect(() => pgBinaryArray("uuid", ["00000000-0000-0000-0000-00000000000\u0130"])).toThrow(TypeError);
    expect(() => pgBinaryArray("uuid", ["not-a-uuid"])).toThrow(TypeError);
    expect(() => pgBinaryArray("bool", ["true"])).toThrow(TypeError);
    expect(() => pgBinaryArray("timestamptz", ["2026-01-01T00:00:00Z"])).toThrow(TypeError);
    expect(() => pgBinaryArray("text", [7])).toThrow(TypeError);
  });
});
