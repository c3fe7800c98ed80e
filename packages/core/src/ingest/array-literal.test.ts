import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pgArrayLiteral } from "./ingest-metadata-events";

// The driver's own serializer, which the insert's array parameters went through before.
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils") as {
  prepareValue: (v: unknown) => string | null;
};

const element = fc.oneof(
  fc.constant(null),
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.constantFrom('"', "\\", ",", "{", "}", " ", "a", "é", "🚀", "NULL") }),
  fc.integer(),
  fc.boolean(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
);

describe("pgArrayLiteral", () => {
  it("writes exactly the array literal the pg driver writes for the same values", () => {
    fc.assert(
      fc.property(fc.array(element, { maxLength: 60 }), (values) => {
        expect(pgArrayLiteral(values)).toBe(prepareValue(values));
      }),
      { numRuns: 2000 },
    );
  });

  it("quotes every element and escapes quotes and backslashes", () => {
    expect(pgArrayLiteral(['a"b', "c\\d", null, 7, true, "NULL", ""])).toBe(
      '{"a\\"b","c\\\\d",NULL,"7","true","NULL",""}',
    );
  });
});
