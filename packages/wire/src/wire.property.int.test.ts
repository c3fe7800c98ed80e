import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  CHECK,
  CONFIRM,
  checkBody,
  createTenant,
  event,
  type Harness,
  INGEST,
  post,
  startHarness,
  storedCounts,
  surfaceReport,
  type Tenant,
  UNTRACKED,
} from "./testing/harness";

// Property: whatever arrives — random JSON, mutated valid bodies, garbage bytes — the answer is a
// documented 4xx/2xx (never a 5xx), and a refused request leaves Postgres exactly as it was.

let h: Harness;
let t: Tenant;
beforeAll(async () => {
  h = await startHarness();
  t = await createTenant(h, { plan: "business" });
});
afterAll(async () => {
  await h?.close();
});

const snapshot = () => storedCounts(h, t);

const RUNS = Number(process.env.WIRE_PROPERTY_RUNS ?? 100);

/** Any JSON value, including the awkward ones (huge numbers, NUL, deep nesting, __proto__ keys). */
const weirdJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    null,
    -1,
    1.5,
    1e300,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    "",
    "\u0000",
    "x".repeat(3000),
    "2026-11-30T10:00:00",
    "not-a-uuid",
    [],
    {},
    { __proto__: { polluted: true } },
    true,
  ),
);

/** A valid body with one or two of its keys dropped, replaced by a weird value, or an extra key added. */
function mutated(base: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(base);
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("drop" as const), key: fc.constantFrom(...keys) }),
    fc.record({ kind: fc.constant("set" as const), key: fc.constantFrom(...keys), value: weirdJson }),
    fc.record({ kind: fc.constant("extra" as const), key: fc.string({ maxLength: 12 }), value: weirdJson }),
  );
  return fc.array(mutation, { minLength: 1, maxLength: 2 }).map((ms) => {
    const out: Record<string, unknown> = { ...base };
    for (const m of ms) {
      if (m.kind === "drop") delete out[m.key];
      else if (m.kind === "set") out[m.key] = m.value;
      else out[m.key] = m.value;
    }
    return out;
  });
}

async function assertSafe(path: string, body: unknown, raw = false): Promise<void> {
  const before = await snapshot();
  const r = await post(h, path, raw ? body : body, t.key, { raw });
  expect(r.status, `${path} ${JSON.stringify(body)?.slice(0, 300)} → ${r.text.slice(0, 200)}`).toBeLessThan(
    500,
  );
  if (r.status >= 400) {
    expect(await snapshot(), `${path} changed the database on ${r.status}`).toBe(before);
    const parsed = JSON.parse(r.text) as { detail: unknown };
    expect(parsed).toHaveProperty("detail");
  }
}

const endpoints = (): [string, () => Record<string, unknown>, boolean][] => [
  [CHECK, () => checkBody({ tags: { team: "a" }, agent_run_id: "r1" }), false],
  [
    CONFIRM,
    () => ({
      reservation_id: "res_unknown",
      model: "gpt-5.5",
      provider: "openai",
      call_id: crypto.randomUUID(),
      token_details: { input_tokens: 1, output_tokens: 1 },
    }),
    false,
  ],
  [
    breakerPath("__self__"),
    () => ({
      provider: "openai",
      state: "open",
      failure_count: 1,
      success_count: 0,
      reported_at: "2026-11-30T10:00:00Z",
      sdk_instance_id: "prop",
    }),
    false,
  ],
  [INGEST, () => event(), true],
  [UNTRACKED, () => surfaceReport(), true],
];

describe("no input makes the SDK API fail with a 5xx or leak a write", () => {
  for (const [rawPath, base, isList] of endpoints()) {
    const label = rawPath.replace("__self__", "{project}");
    it(`${label}: random JSON bodies`, async () => {
      const path = rawPath.replace("__self__", t.projectId);
      await fc.assert(
        fc.asyncProperty(weirdJson, async (body) => assertSafe(path, body)),
        { numRuns: RUNS },
      );
    }, 120_000);

    it(`${label}: mutated valid bodies`, async () => {
      const path = rawPath.replace("__self__", t.projectId);
      const arb = mutated(base()).map((b) => (isList ? [b] : b));
      await fc.assert(
        fc.asyncProperty(arb, async (body) => assertSafe(path, body)),
        { numRuns: RUNS },
      );
    }, 120_000);

    it(`${label}: arbitrary bytes`, async () => {
      const path = rawPath.replace("__self__", t.projectId);
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200, unit: "binary" }), async (text) =>
          assertSafe(path, text, true),
        ),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    }, 120_000);
  }

  // Every field × every edge value, exhaustively: random sampling alone can miss the one
  // combination a core use case does not accept (an empty model, an empty run id…).
  const EDGES: unknown[] = [
    "",
    " ",
    "\u0000",
    "\ud800",
    "a\udfffb",
    "\ud83d\ude00",
    { "\ud800": "x" },
    "x".repeat(2049),
    -1,
    0,
    1,
    1.5,
    100_000_001,
    2 ** 53,
    1e300,
    null,
    true,
    [],
    {},
    [""],
    ["openai"],
    { a: "" },
    { "": "x" },
    "1",
    "openai",
    "text",
    "2026-11-30T10:00:00",
    "2026-11-30T10:00:00Z",
    "NOT-A-UUID",
    "0B0C1F5E-8C1A-4C4B-9B0A-7D1F0E2A3B4C",
  ];
  const OPTIONAL: Record<string, string[]> = {
    [CHECK]: [
      "modality",
      "tags",
      "agent_run_id",
      "uncounted_calls",
      "uncounted_tokens",
      "estimated_media",
      "fallback_providers",
      "fallback_models",
    ],
    [CONFIRM]: [
      "lease_id",
      "media_usage",
      "provider_region",
      "service_tier",
      "modality",
      "is_provider_fallback",
    ],
    [INGEST]: [
      "tags",
      "requested_provider",
      "requested_model",
      "failover_reason",
      "failover_error_class",
      "possibly_succeeded",
      "service_tier",
      "parent_agent_run_id",
      "agent_run_name",
      "provider_region",
      "lease_id",
      "deny_source",
      "deny_reason",
      "denied_by_period",
      "estimated_output_bound",
      "velocity_flags",
      "receipt_aggregate_count",
      "receipt_pricing_input_tokens",
      "media_usage",
    ],
    [UNTRACKED]: [],
  };
  for (const [rawPath, base, isList] of endpoints()) {
    const label = rawPath.replace("__self__", "{project}");
    it(`${label}: every field set to every edge value`, async () => {
      const path = rawPath.replace("__self__", t.projectId);
      const fields = [...Object.keys(base()), ...(OPTIONAL[rawPath] ?? [])];
      for (const field of fields) {
        for (const value of EDGES) {
          const body = { ...base(), [field]: value };
          await assertSafe(path, isList ? [body] : body);
        }
      }
    }, 300_000);
  }

  const TOKEN_FIELDS = [
    "input_tokens",
    "cached_input_tokens",
    "reasoning_tokens",
    "is_estimated",
    "surprise",
  ];
  const MEDIA_FIELDS = ["image_count", "video_seconds", "resolution", "quality", "is_estimated", "surprise"];
  const NESTED: [string, string, string[], boolean][] = [
    [CHECK, "estimated_media", MEDIA_FIELDS, false],
    [CONFIRM, "token_details", TOKEN_FIELDS, false],
    [CONFIRM, "media_usage", MEDIA_FIELDS, false],
    [INGEST, "token_details", TOKEN_FIELDS, true],
    [INGEST, "media_usage", MEDIA_FIELDS, true],
  ];
  it("nested objects: every inner field set to every edge value", async () => {
    const bases = Object.fromEntries(endpoints().map(([p, b]) => [p, b]));
    for (const [path, outer, inner, isList] of NESTED) {
      for (const field of inner) {
        for (const value of EDGES) {
          const body = { ...bases[path]!(), [outer]: { [field]: value } };
          await assertSafe(path, isList ? [body] : body);
        }
      }
    }
  }, 300_000);

  it("a foreign or malformed project in the breaker path is 404 for any body", async () => {
    const other = await createTenant(h);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constant(other.projectId),
          fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
        ),
        weirdJson,
        async (projectId, body) => {
          const before = await snapshot();
          const r = await post(h, breakerPath(projectId), body, t.key);
          expect(r.status).toBeLessThan(500);
          if (projectId !== t.projectId && r.status !== 422) expect([404]).toContain(r.status);
          expect(await snapshot()).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
