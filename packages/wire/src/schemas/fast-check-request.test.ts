import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastCheckRequest } from "./fast-check-request";
import { checkRequest } from "./requests";

const base = {
  estimated_input_tokens: 1234,
  model: "gpt-5.5",
  provider: "openai",
  failover_directive_version: "1",
  price_hints_version: "1",
  run_directive_version: "1",
  fallback_providers: ["anthropic"],
  fallback_models: ["claude-sonnet-5"],
};

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    "1",
    1,
    "text",
    "image",
    "openai",
    "ollama",
    [],
    ["openai"],
    ["m"],
    { a: "b" },
    { "": "x" },
    -1,
    1.5,
    2 ** 53,
    "x".repeat(2049),
  ),
);
const keys = fc.constantFrom(
  ...Object.keys(base),
  "modality",
  "tags",
  "agent_run_id",
  "uncounted_calls",
  "uncounted_tokens",
  "estimated_media",
  "extra",
);

describe("fastCheckRequest", () => {
  it("accepts the SDK's usual bodies exactly as the schema does", () => {
    expect(fastCheckRequest(base)).toEqual(checkRequest.parse(base));
    const withTags = { ...base, tags: { team: "a" }, agent_run_id: "r", modality: "text" };
    expect(fastCheckRequest(withTags)).toEqual(checkRequest.parse(withTags));
    expect(fastCheckRequest({ estimated_input_tokens: 0, model: "m", provider: "vllm" })).toEqual(
      checkRequest.parse({ estimated_input_tokens: 0, model: "m", provider: "vllm" }),
    );
  });

  it("never accepts what the schema rejects, and agrees with it whenever it answers", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, value, fc.boolean()), { maxLength: 4 }), (edits) => {
        const body: Record<string, unknown> = { ...base };
        for (const [k, v, drop] of edits) {
          if (drop) delete body[k];
          else body[k] = v;
        }
        const fast = fastCheckRequest(body);
        const slow = checkRequest.safeParse(body);
        if (fast !== null) {
          expect(slow.success).toBe(true);
          expect(fast).toEqual(slow.data);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
