import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkBudgetInput, parseCheckBudgetInput } from "./check-budget";

const outcome = (f: () => unknown) => {
  try {
    return { ok: true, value: f() };
  } catch (err) {
    return { ok: false, zod: err instanceof z.core.$ZodError, issues: (err as z.ZodError).issues };
  }
};

// Field values that zod accepts and ones it refuses, including the edges of each rule.
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
  fc.constant(""),
  fc.integer({ min: -3, max: 1_000_000 }),
  fc.constantFrom(1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -0, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), {
    maxKeys: 3,
  }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }),
  fc.constant(JSON.parse('{"__proto__":"x","a":"b"}')),
  fc.constant(Object.create(null) as object),
  fc.constant(new Map()),
);
const FIELDS = [
  "projectId",
  "provider",
  "model",
  "estimatedInputTokens",
  "fallbackProviders",
  "fallbackModels",
  "modality",
  "agentRunId",
  "tags",
  "uncountedCalls",
  "uncountedTokens",
] as const;
const valid = {
  projectId: "proj_1",
  provider: "openai",
  model: "gpt-5.5",
  estimatedInputTokens: 1200,
  fallbackProviders: ["anthropic"],
  fallbackModels: ["claude-sonnet-4-5"],
  modality: "text",
  agentRunId: "run-1",
  tags: { team: "search" },
  uncountedCalls: 0,
  uncountedTokens: 0,
};

describe("parseCheckBudgetInput", () => {
  it("answers exactly like checkBudgetInput.parse for valid input, with the same defaults", () => {
    expect(parseCheckBudgetInput(valid)).toEqual(checkBudgetInput.parse(valid));
    const minimal = { projectId: "p", provider: "openai", model: "m", estimatedInputTokens: 0 };
    expect(parseCheckBudgetInput(minimal)).toEqual(checkBudgetInput.parse(minimal));
    expect(parseCheckBudgetInput({ ...minimal, agentRunId: null, tags: null })).toEqual(
      checkBudgetInput.parse({ ...minimal, agentRunId: null, tags: null }),
    );
  });

  it("accepts, refuses and fills in exactly what zod does, field by field", () => {
    // A valid request with one or two fields replaced by anything and some fields left out.
    fc.assert(
      fc.property(
        fc.constantFrom(...FIELDS),
        anyValue,
        fc.constantFrom(...FIELDS),
        fc.option(anyValue, { nil: undefined }),
        fc.subarray([...FIELDS], { maxLength: 3 }),
        (f1, v1, f2, v2, dropped) => {
          const raw: Record<string, unknown> = { ...valid, [f1]: v1 };
          if (v2 !== undefined) raw[f2] = v2;
          for (const f of dropped) delete raw[f];
          const fast = outcome(() => parseCheckBudgetInput(raw as never));
          const slow = outcome(() => checkBudgetInput.parse(raw));
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it("refuses what is not an object the way zod does", () => {
    for (const raw of [null, undefined, 42, "x", []])
      expect(outcome(() => parseCheckBudgetInput(raw as never))).toEqual(
        outcome(() => checkBudgetInput.parse(raw)),
      );
  });
});
