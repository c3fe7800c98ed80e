import { describe, expect, it } from "vitest";
import { INGEST_COLUMNS, insertStatement, NAMED_INSERTS_MAX } from "./ingest-metadata-events";

/** The used-column flags of combination `n` (bit j of n = optional column j used). */
const usedOf = (n: number) => INGEST_COLUMNS.map((_, j) => j < 4 || ((n >> (j % 20)) & 1) === 1);

describe("the ingest insert's statements", () => {
  it("at most NAMED_INSERTS_MAX column sets are prepared, however many combinations arrive", () => {
    const names = new Set<string>();
    const firstName = insertStatement(usedOf(1)).name;
    for (let n = 0; n < 2_000; n++) {
      const stmt = insertStatement(usedOf(n));
      expect(stmt.text).toContain("INSERT INTO metadata_events");
      if (stmt.name) names.add(stmt.name);
    }
    expect(names.size).toBeLessThanOrEqual(NAMED_INSERTS_MAX);
    // A named set keeps its name (a name is never reused for other text).
    expect(insertStatement(usedOf(1)).name).toBe(firstName);
    expect(insertStatement(usedOf(1_999)).name).toBeUndefined();
  });
});
