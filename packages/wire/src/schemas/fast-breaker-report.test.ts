import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastBreakerReport } from "./fast-breaker-report";
import { breakerReport } from "./requests";

const base = {
  provider: "openai",
  state: "closed",
  failure_count: 0,
  success_count: 12,
  reported_at: "2026-12-07T03:00:00.123456Z",
  sdk_instance_id: "web-7f3a",
};

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    "open",
    "half_open",
    "closed",
    "CLOSED",
    "anthropic",
    "ollama",
    "",
    "x".repeat(100),
    "x".repeat(101),
    0,
    -1,
    1.5,
    2_147_483_647,
    2_147_483_648,
    "2026-12-07T03:00:00Z",
    "2026-12-07T03:00:00",
    "2026-12-07T03:00:00+02:00",
    "2099-01-01T00:00:00Z",
    "0050-06-01T00:00:00Z",
  ),
);
const keys = fc.constantFrom(...Object.keys(base), "extra", "__proto__", "constructor");

describe("fastBreakerReport", () => {
  it("accepts the SDK's usual reports exactly as the schema does", () => {
    expect(fastBreakerReport(base)).toEqual(breakerReport.parse(base));
    for (const state of ["open", "half_open"]) {
      const b = { ...base, state, reported_at: "2026-12-07T05:00:00+02:00" };
      expect(fastBreakerReport(b)).toEqual(breakerReport.parse(b));
    }
  });

  it("never accepts what the schema rejects, and agrees with it whenever it answers", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, value, fc.boolean()), { maxLength: 4 }), (edits) => {
        const body: Record<string, unknown> = { ...base };
        for (const [k, v, drop] of edits) {
          if (drop) delete body[k];
          else
            Object.defineProperty(body, k, {
              value: v,
              enumerable: true,
              configurable: true,
              writable: true,
            });
        }
        const fast = fastBreakerReport(body);
        const slow = breakerReport.safeParse(body);
        if (fast !== null) {
          expect(slow.success).toBe(true);
          expect(fast).toEqual(slow.data);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
