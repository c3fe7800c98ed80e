import { describe, expect, it } from "vitest";
import { type BudgetRules, changedBudget } from "./budget";
import { UsageError } from "./parse";

const current: BudgetRules = {
  mode: "alert_only",
  limits: { daily: 5, weekly: null, monthly: 100 },
  thresholds: [50, 80],
  runSpendCapUsd: 2,
};

describe("changedBudget", () => {
  it("replaces what is given and keeps the rest", () => {
    expect(changedBudget(current, { mode: "hard_deny", weekly: 30, thresholds: "80, 100" })).toEqual({
      mode: "hard_deny",
      limits: { daily: 5, weekly: 30, monthly: 100 },
      thresholds: [80, 100],
      runSpendCapUsd: 2,
    });
    expect(current.limits.weekly).toBeNull();
  });

  it("--clear removes limits, thresholds and the run cap", () => {
    expect(changedBudget(current, { clear: "daily,thresholds,run-cap" })).toEqual({
      ...current,
      limits: { daily: null, weekly: null, monthly: 100 },
      thresholds: [],
      runSpendCapUsd: null,
    });
  });

  it.each([
    [{}, /nothing to change/],
    [{ clear: "yearly" }, /--clear takes daily, weekly, monthly, thresholds, run-cap/],
    [{ daily: 3, clear: "daily" }, /--daily and --clear daily contradict/],
    [{ thresholds: "50,eighty" }, /whole percentages/],
  ])("%j is a usage error", (v, message) => {
    expect(() => changedBudget(current, v)).toThrow(UsageError);
    expect(() => changedBudget(current, v)).toThrow(message);
  });
});
