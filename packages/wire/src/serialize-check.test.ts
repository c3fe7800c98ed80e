import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkResponse } from "./schemas/responses";
import { type CheckOptIns, type CheckVerdict, floatJson, serializeCheckResponse } from "./serialize-check";

const P = "proj_0123456789abcdef01234567";
const allow: CheckVerdict = {
  allowed: true,
  mode: "hard_deny",
  remainingBudget: 99.5,
  budgetLimit: 100,
  currentUsage: 0.5,
  reservationId: "res_abc",
  deniedByPeriod: null,
  runControl: null,
};
const hardDeny: CheckVerdict = {
  ...allow,
  allowed: false,
  remainingBudget: 0,
  currentUsage: 100,
  reservationId: null,
  deniedByPeriod: "monthly",
};
const alertDeny: CheckVerdict = { ...hardDeny, mode: "alert_only" };
const stopped: CheckVerdict = {
  ...hardDeny,
  mode: "alert_only", // the serializer must force hard_deny and 0 remaining
  remainingBudget: 42,
  deniedByPeriod: "run_stopped",
  runControl: { reason: "manual_kill" },
};
const all: CheckOptIns = {
  failoverDirectiveVersion: true,
  runDirectiveVersion: true,
  priceHintsVersion: true,
  agentRunId: "run-1",
};
const none: CheckOptIns = {
  failoverDirectiveVersion: false,
  runDirectiveVersion: false,
  priceHintsVersion: false,
  agentRunId: null,
};
const extras = { priceHints: { openai: 1, anthropic: 2.5, ollama: 0 }, failoverTuningAllowed: true };

const keysOf = (s: string) => Object.keys(JSON.parse(s));

describe("floatJson", () => {
  it("always writes a float-looking, finite number", () => {
    expect(floatJson(0)).toBe("0.0");
    expect(floatJson(-0)).toBe("0.0");
    expect(floatJson(20)).toBe("20.0");
    expect(floatJson(0.1)).toBe("0.1");
    expect(floatJson(1e-7)).toBe("1e-7");
    expect(floatJson(1e21)).toBe("1e+21");
    expect(() => floatJson(Number.NaN)).toThrow();
    expect(() => floatJson(Number.POSITIVE_INFINITY)).toThrow();
  });

  it("writes every other finite number exactly as JSON does", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        if (Number.isInteger(x) && Math.abs(x) < 1e21) return;
        expect(floatJson(x)).toBe(JSON.stringify(x));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("serializeCheckResponse", () => {
  it("allow with every opt-in: exact bytes, no null keys", () => {
    const s = serializeCheckResponse(allow, P, all, extras);
    expect(s).toBe(
      `{"allowed":true,"remaining_budget":99.5,"reservation_id":"res_abc","mode":"hard_deny","budget_limit":100.0,"current_usage":0.5,"project_id":"${P}","price_hints":{"openai":1.0,"anthropic":2.5,"ollama":0.0},"failover_directive":{"version":"1","failover_tuning_allowed":true}}`,
    );
    expect(checkResponse.safeParse(JSON.parse(s)).success).toBe(true);
  });

  it("hard deny opted in: no reservation_id key, denied_by_period present", () => {
    const s = serializeCheckResponse(hardDeny, P, all, { ...extras, failoverTuningAllowed: false });
    expect(keysOf(s)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    expect(s).toContain('"failover_directive":{"version":"1","failover_tuning_allowed":false}');
  });

  it("alert-only deny keeps mode alert_only", () => {
    const s = JSON.parse(serializeCheckResponse(alertDeny, P, all, extras));
    expect(s.mode).toBe("alert_only");
    expect(s.allowed).toBe(false);
  });

  it("run_stopped with run opt-in carries run_control for the requested run, hard_deny, 0 remaining", () => {
    const s = serializeCheckResponse(stopped, P, { ...all, agentRunId: "Run/ID ü" }, extras);
    const body = JSON.parse(s);
    expect(body.mode).toBe("hard_deny");
    expect(s).toContain('"remaining_budget":0.0');
    expect(body.run_control).toEqual({
      version: "1",
      action: "terminate",
      agent_run_id: "Run/ID ü",
      reason: "manual_kill",
    });
    expect(keysOf(s).at(-1)).toBe("run_control");
    expect(checkResponse.safeParse(body).success).toBe(true);
  });

  it("run_stopped without the run opt-in has no run_control key (exclude-none via failover opt-in)", () => {
    const s = serializeCheckResponse(stopped, P, { ...all, runDirectiveVersion: false }, extras);
    expect(keysOf(s)).not.toContain("run_control");
  });

  it("legacy (no opt-in): explicit nulls for the five optional keys", () => {
    expect(serializeCheckResponse(allow, P, none, extras)).toBe(
      `{"allowed":true,"remaining_budget":99.5,"reservation_id":"res_abc","mode":"hard_deny","budget_limit":100.0,"current_usage":0.5,"denied_by_period":null,"project_id":"${P}","price_hints":null,"failover_directive":null,"run_control":null}`,
    );
    expect(serializeCheckResponse(hardDeny, P, none, extras)).toBe(
      `{"allowed":false,"remaining_budget":0.0,"reservation_id":null,"mode":"hard_deny","budget_limit":100.0,"current_usage":100.0,"denied_by_period":"monthly","project_id":"${P}","price_hints":null,"failover_directive":null,"run_control":null}`,
    );
  });

  it("legacy run_stopped: run_control is null, not the directive", () => {
    const body = JSON.parse(serializeCheckResponse(stopped, P, { ...none, agentRunId: "r" }, extras));
    expect(body.run_control).toBeNull();
    expect(body.mode).toBe("hard_deny");
  });

  it("price_hints_version alone keeps legacy nulls but states the hints", () => {
    const s = serializeCheckResponse(allow, P, { ...none, priceHintsVersion: true }, extras);
    const body = JSON.parse(s);
    expect(body.price_hints).toEqual({ openai: 1, anthropic: 2.5, ollama: 0 });
    expect(body.denied_by_period).toBeNull();
    expect(body.failover_directive).toBeNull();
    expect(body.run_control).toBeNull();
  });

  it("run_directive_version alone: exclude-none and no failover_directive key at all", () => {
    const s = serializeCheckResponse(
      allow,
      P,
      { ...none, runDirectiveVersion: true, agentRunId: "r" },
      extras,
    );
    expect(keysOf(s)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "project_id",
    ]);
  });

  it("allow without a reservation (unpriced model): key omitted when opted in, null in legacy", () => {
    const unpriced = { ...allow, reservationId: null };
    expect(keysOf(serializeCheckResponse(unpriced, P, all, extras))).not.toContain("reservation_id");
    expect(JSON.parse(serializeCheckResponse(unpriced, P, none, extras)).reservation_id).toBeNull();
  });

  it("empty hints are stated as {} (nothing priceable)", () => {
    const s = serializeCheckResponse(allow, P, all, { ...extras, priceHints: {} });
    expect(s).toContain('"price_hints":{}');
  });

  it("tag and agent_run denies carry their period", () => {
    for (const period of ["tag", "agent_run", "daily", "weekly"] as const) {
      const body = JSON.parse(
        serializeCheckResponse({ ...hardDeny, deniedByPeriod: period }, P, all, extras),
      );
      expect(body.denied_by_period).toBe(period);
      expect(body).not.toHaveProperty("reservation_id");
      expect(body).not.toHaveProperty("run_control");
    }
  });
});

// The straightforward serializer this module used before it was built as one string; kept here
// as the reference the faster one must match byte for byte.
function referenceSerialize(
  v: CheckVerdict,
  projectId: string,
  opt: CheckOptIns,
  extras: {
    priceHints: Record<string, number> | null;
    failoverTuningAllowed: boolean;
  },
): string {
  const excludeNone = opt.failoverDirectiveVersion || opt.runDirectiveVersion;
  const stopped = !v.allowed && v.deniedByPeriod === "run_stopped";
  const mode = stopped ? "hard_deny" : v.mode;
  const remaining = stopped ? 0 : v.remainingBudget;
  const parts: string[] = [];
  const optional = (key: string, value: string | null) => {
    if (value !== null) parts.push(`"${key}":${value}`);
    else if (!excludeNone) parts.push(`"${key}":null`);
  };

  parts.push(`"allowed":${v.allowed ? "true" : "false"}`);
  parts.push(`"remaining_budget":${floatJson(remaining)}`);
  optional("reservation_id", v.allowed && v.reservationId ? JSON.stringify(v.reservationId) : null);
  parts.push(`"mode":"${mode}"`);
  parts.push(`"budget_limit":${floatJson(v.budgetLimit)}`);
  parts.push(`"current_usage":${floatJson(v.currentUsage)}`);
  optional("denied_by_period", !v.allowed && v.deniedByPeriod ? `"${v.deniedByPeriod}"` : null);
  parts.push(`"project_id":${JSON.stringify(projectId)}`);

  let hints: string | null = null;
  if (opt.priceHintsVersion && extras.priceHints) {
    const entries = Object.keys(extras.priceHints).map(
      (p) => `${JSON.stringify(p)}:${floatJson(extras.priceHints![p]!)}`,
    );
    hints = `{${entries.join(",")}}`;
  }
  optional("price_hints", hints);
  optional(
    "failover_directive",
    opt.failoverDirectiveVersion
      ? `{"version":"1","failover_tuning_allowed":${extras.failoverTuningAllowed ? "true" : "false"}}`
      : null,
  );

  let runControl: string | null = null;
  if (opt.runDirectiveVersion && stopped && v.runControl && opt.agentRunId) {
    const reason = (v.runControl.reason || "stopped").slice(0, 64);
    runControl = `{"version":"1","action":"terminate","agent_run_id":${JSON.stringify(opt.agentRunId)},"reason":${JSON.stringify(reason)}}`;
  }
  optional("run_control", runControl);
  return `{${parts.join(",")}}`;
}

describe("serializeCheckResponse against the reference serializer", () => {
  const amount = fc.oneof(
    fc.constantFrom(0, -0, 1, 20, 0.1, 1e-7, 123456.000000001, 1e21, 9007199.254740991),
    fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }),
  );
  const verdict = fc.record({
    allowed: fc.boolean(),
    mode: fc.constantFrom("alert_only" as const, "hard_deny" as const),
    remainingBudget: amount,
    budgetLimit: amount,
    currentUsage: amount,
    reservationId: fc.option(fc.constantFrom("res_0123456789abcdef01234567", "", 'odd"id\\'), { nil: null }),
    deniedByPeriod: fc.option(
      fc.constantFrom(
        "run_stopped" as const,
        "run_stopped" as const,
        "daily" as const,
        "weekly" as const,
        "monthly" as const,
        "agent_run" as const,
        "tag" as const,
        "run_stopped" as const,
      ),
      { nil: null },
    ),
    runControl: fc.option(
      fc.record({
        reason: fc.oneof(
          fc.constant(""),
          fc.string({ maxLength: 20 }),
          fc.string({ minLength: 60, maxLength: 70 }),
        ),
      }),
      { nil: null },
    ),
  });
  const optIns = fc.record({
    failoverDirectiveVersion: fc.boolean(),
    runDirectiveVersion: fc.boolean(),
    priceHintsVersion: fc.boolean(),
    agentRunId: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
  });
  const hints = fc.option(
    fc.dictionary(fc.constantFrom("openai", "anthropic", "ollama", 'we"ird'), amount, { maxKeys: 4 }),
    { nil: null },
  );

  it("writes the same bytes for every verdict, opt-in set and hints (frozen or not)", () => {
    fc.assert(
      fc.property(verdict, optIns, hints, fc.boolean(), fc.boolean(), (v, opt, h, freeze, tuning) => {
        const priceHints = h && freeze ? Object.freeze({ ...h }) : h;
        const ex = { priceHints, failoverTuningAllowed: tuning };
        expect(serializeCheckResponse(v, P, opt, ex)).toBe(referenceSerialize(v, P, opt, ex));
        // A mutable hints object may change between calls; a frozen one may be remembered.
        if (priceHints && !freeze) for (const k of Object.keys(priceHints)) priceHints[k] = 0.5;
        expect(serializeCheckResponse(v, P, opt, ex)).toBe(referenceSerialize(v, P, opt, ex));
      }),
      { numRuns: 5_000 },
    );
  });
});
