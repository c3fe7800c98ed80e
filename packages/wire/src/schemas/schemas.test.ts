import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zodIssuesToItems } from "../errors";
import { parseInstant } from "./common";
import {
  breakerReport,
  checkRequest,
  confirmRequest,
  metadataEvent,
  untrackedSurfaceReport,
} from "./requests";

const UUID = "0b0c1f5e-8c1a-4c4b-9b0a-7d1f0e2a3b4c";
const items = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } },
  v: unknown,
) => {
  const r = schema.safeParse(v);
  if (r.success) return [];
  return zodIssuesToItems(r.error!.issues as never, v);
};

/** The regular-expression parser parseInstant replaced (with its year fix): the reference it must match. */
const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;
function referenceInstant(text: string) {
  const m = RFC3339_RE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = "", off] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const check = new Date(Date.UTC(2000, 0, 1, Number(h), Number(mi), Number(s)));
  check.setUTCFullYear(Number(y), month - 1, day);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  let offsetMs = 0;
  if (off !== "Z" && off !== "z") {
    const sign = off!.startsWith("-") ? -1 : 1;
    const oh = Number(off!.slice(1, 3));
    const om = Number(off!.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMs = sign * (oh * 60 + om) * 60_000;
  }
  const epochMs = check.getTime() - offsetMs;
  const fracMicros = Number(frac.padEnd(6, "0").slice(0, 6));
  const micros = epochMs * 1000 + fracMicros;
  if (!Number.isSafeInteger(micros)) return null;
  const iso = `${new Date(epochMs).toISOString().slice(0, 19)}.${String(fracMicros).padStart(6, "0")}Z`;
  return { micros, iso, date: new Date(epochMs + Math.floor(fracMicros / 1000)) };
}

describe("parseInstant", () => {
  it("answers exactly as the regular-expression parser did, for valid and broken timestamps alike", () => {
    const two = (lo: number, hi: number) =>
      fc.integer({ min: lo, max: hi }).map((n) => String(n).padStart(2, "0"));
    const valid = fc
      .tuple(
        fc.integer({ min: 1600, max: 2400 }).map((n) => String(n).padStart(4, "0")),
        two(0, 13),
        two(0, 32),
        fc.constantFrom("T", "t", " ", "X"),
        two(0, 24),
        two(0, 60),
        two(0, 60),
        fc.option(fc.stringMatching(/^[0-9]{0,10}$/), { nil: undefined }),
        fc.constantFrom(
          "Z",
          "z",
          "+00:00",
          "-00:00",
          "+05:30",
          "-11:59",
          "+23:59",
          "+24:00",
          "-03:60",
          "",
          "+0530",
          "Zx",
        ),
      )
      .map(
        ([y, mo, d, t, h, mi, s, frac, off]) =>
          `${y}-${mo}-${d}${t}${h}:${mi}:${s}${frac === undefined ? "" : `.${frac}`}${off}`,
      );
    const mutated = fc
      .tuple(valid, fc.nat(40), fc.constantFrom("", "0", "a", "-", ":", ".", "٣", "Z"))
      .map(([t, at, c]) => t.slice(0, at) + c + t.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(valid, mutated, fc.string({ maxLength: 40 })), (text) => {
        expect(parseInstant(text)).toEqual(referenceInstant(text));
      }),
      { numRuns: 20_000 },
    );
    for (const t of [
      "2024-02-29T23:59:59.999999999-23:59",
      "2255-06-01T00:00:00Z",
      "1685-01-01T00:00:00Z",
      "2026-12-06t02:40:00.5z",
    ]) {
      expect(parseInstant(t)).toEqual(referenceInstant(t));
    }
  });

  it("compares fractional forms as the same instant, to the microsecond", () => {
    const a = parseInstant("2026-08-31T01:00:00.123Z")!;
    const b = parseInstant("2026-08-31T01:00:00.123000Z")!;
    const c = parseInstant("2026-08-31T03:00:00.1230001+02:00")!;
    expect(a.micros).toBe(b.micros);
    expect(c.micros).toBe(a.micros);
    expect(a.iso).toBe("2026-08-31T01:00:00.123000Z");
    expect(parseInstant("2026-08-31T01:00:00Z")!.iso).toBe("2026-08-31T01:00:00.000000Z");
    expect(
      parseInstant("2026-08-31T01:00:00.000001Z")!.micros - parseInstant("2026-08-31T01:00:00Z")!.micros,
    ).toBe(1);
  });

  it("rejects timestamps without a UTC offset and impossible dates", () => {
    expect(parseInstant("2026-08-31T01:00:00")).toBeNull();
    expect(parseInstant("2026-08-31 01:00:00Z")).toBeNull();
    expect(parseInstant("2026-02-30T01:00:00Z")).toBeNull();
    expect(parseInstant("2026-13-01T01:00:00Z")).toBeNull();
    expect(parseInstant("2026-01-01T24:00:00Z")).toBeNull();
    expect(parseInstant("yesterday")).toBeNull();
  });

  it("reads every year as written, and refuses instants whose microseconds would not be exact", () => {
    // Date.UTC would read year 50 as 1950: such an instant must be refused, never moved 1900 years.
    expect(parseInstant("0050-06-01T00:00:00Z")).toBeNull();
    expect(parseInstant("0099-12-31T23:59:59+00:00")).toBeNull();
    expect(parseInstant("1950-06-01T00:00:00Z")!.micros).toBe(Date.UTC(1950, 5, 1) * 1000);
    expect(parseInstant("1700-01-01T00:00:00.000001Z")!.iso).toBe("1700-01-01T00:00:00.000001Z");
    expect(parseInstant("2024-02-29T12:00:00Z")!.iso).toBe("2024-02-29T12:00:00.000000Z");
    expect(parseInstant("2023-02-29T12:00:00Z")).toBeNull();
    expect(parseInstant("1600-01-01T00:00:00Z")).toBeNull(); // before ~1685: not a safe integer of µs
    expect(parseInstant("2300-01-01T00:00:00Z")).toBeNull(); // after ~2255
    expect(parseInstant("2026-12-31T23:30:00-01:00")!.iso).toBe("2027-01-01T00:30:00.000000Z");
  });
});

describe("request schemas", () => {
  const check = { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai" };

  it("accepts the SDK's minimal and full check bodies", () => {
    expect(checkRequest.safeParse(check).success).toBe(true);
    expect(
      checkRequest.safeParse({
        ...check,
        modality: "text",
        fallback_providers: ["anthropic"],
        fallback_models: ["claude-sonnet-5"],
        tags: {},
        agent_run_id: null,
        failover_directive_version: "1",
        run_directive_version: "1",
        price_hints_version: "1",
        estimated_media: { image_count: 1, quality: null, is_estimated: false },
      }).success,
    ).toBe(true);
  });

  it("maps problems to FastAPI items", () => {
    expect(items(checkRequest, { ...check, extra: 1 })).toEqual([
      { loc: ["body", "extra"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
    ]);
    expect(items(checkRequest, { model: "m", provider: "openai" })).toEqual([
      { loc: ["body", "estimated_input_tokens"], msg: "Field required", type: "missing" },
    ]);
    expect(items(checkRequest, { ...check, estimated_input_tokens: 1.5 })[0]!.type).toBe("int_from_float");
    expect(items(checkRequest, { ...check, provider: "nope" })[0]!.type).toBe("enum");
    expect(items(checkRequest, { ...check, fallback_providers: ["openai"] })[0]).toMatchObject({
      loc: ["body", "fallback_models"],
      type: "value_error",
    });
    expect(items(checkRequest, { ...check, model: "x".repeat(2049) })[0]!.type).toBe("string_too_long");
    expect(items(checkRequest, { ...check, tags: { a: "b\u0000" } })[0]!.loc).toEqual(["body", "tags"]);
    expect(
      items(checkRequest, {
        ...check,
        tags: Object.fromEntries([...Array(11)].map((_, i) => [`k${i}`, "v"])),
      }),
    ).toHaveLength(1);
    expect(items(checkRequest, { ...check, failover_directive_version: 1 })[0]!.type).toBe("literal_error");
    expect(
      items(checkRequest, {
        ...check,
        fallback_models: Array(9).fill("m"),
        fallback_providers: Array(9).fill("openai"),
      }).length,
    ).toBeGreaterThan(0);
  });

  it("confirm needs exactly one of reservation_id / lease_id", () => {
    const base = {
      model: "gpt-5.5",
      provider: "openai",
      call_id: UUID,
      token_details: { input_tokens: 10, output_tokens: 5 },
    };
    expect(confirmRequest.safeParse({ ...base, reservation_id: "res_1" }).success).toBe(true);
    expect(confirmRequest.safeParse({ ...base, lease_id: "lse_1" }).success).toBe(true);
    expect(items(confirmRequest, base)[0]).toMatchObject({
      loc: ["body", "reservation_id"],
      type: "value_error",
    });
    expect(items(confirmRequest, { ...base, reservation_id: "r", lease_id: "l" })[0]!.type).toBe(
      "value_error",
    );
    expect(
      confirmRequest.safeParse({ ...base, reservation_id: "r", call_id: UUID.toUpperCase() }).success,
    ).toBe(false);
    expect(confirmRequest.safeParse({ ...base, reservation_id: "r", service_tier: "turbo" }).success).toBe(
      false,
    );
  });

  it("events: float latency, timestamps need an offset, receipt tokens need the aggregate count", () => {
    const e = {
      model: "gpt-5.5",
      provider: "openai",
      input_tokens: 1,
      output_tokens: 2,
      latency_ms: 12.5,
      status: "success",
      is_model_fallback: false,
      call_id: UUID,
      sdk_instance_id: "i",
      timestamp: "2026-08-31T01:00:00.123456Z",
    };
    expect(metadataEvent.safeParse(e).success).toBe(true);
    expect(items(metadataEvent, { ...e, timestamp: "2026-08-31T01:00:00" })[0]!.loc).toEqual([
      "body",
      "timestamp",
    ]);
    expect(items(metadataEvent, { ...e, receipt_pricing_input_tokens: 5 })[0]!.loc).toEqual([
      "body",
      "receipt_pricing_input_tokens",
    ]);
    expect(
      metadataEvent.safeParse({ ...e, receipt_pricing_input_tokens: 5, receipt_aggregate_count: 2 }).success,
    ).toBe(true);
    // Tag and modality problems are per-event dispositions, not envelope errors.
    expect(metadataEvent.safeParse({ ...e, tags: { "": "x" }, modality: "hologram" }).success).toBe(true);
    expect(metadataEvent.safeParse({ ...e, latency_ms: -1 }).success).toBe(false);
    expect(metadataEvent.safeParse({ ...e, failover_error_class: "Connection refused" }).success).toBe(false);
  });

  it("breaker and untracked reports", () => {
    const b = {
      provider: "openai",
      state: "open",
      failure_count: 3,
      success_count: 0,
      reported_at: "2026-08-31T01:00:00.123Z",
      sdk_instance_id: "i",
    };
    expect(breakerReport.safeParse(b).success).toBe(true);
    expect(breakerReport.safeParse({ ...b, sdk_instance_id: "x".repeat(101) }).success).toBe(false);
    const u = {
      provider: "openai",
      client_shape: "openai_sdk",
      mode: "async",
      surface: "responses.retrieve",
      rule_kind: "unmetered_spend",
      capability_scope: null,
      posture: "warn",
      occurrences: 3,
      first_seen_at: "2026-08-31T01:00:00Z",
      last_seen_at: "2026-08-31T01:02:03.456Z",
      sdk_instance_id: "i",
      report_id: UUID,
    };
    expect(untrackedSurfaceReport.safeParse(u).success).toBe(true);
    expect(
      items(untrackedSurfaceReport, { ...u, last_seen_at: "2026-08-31T00:59:59.999999Z" })[0]!.loc,
    ).toEqual(["body", "last_seen_at"]);
  });
});
