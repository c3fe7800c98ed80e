/** `budget set`: the flags given, applied to a project's current budget (the same on the database and over the API). */
import type { FlagValue } from "./parse";
import { UsageError } from "./parse";

const PERIODS = ["daily", "weekly", "monthly"] as const;
const CLEARABLE = [...PERIODS, "thresholds", "run-cap"] as const;

/** A project's budget rules: what `budget show` prints and `budget set` replaces. */
export interface BudgetRules {
  mode: "alert_only" | "hard_deny";
  limits: { daily: number | null; weekly: number | null; monthly: number | null };
  thresholds: number[];
  runSpendCapUsd: number | null;
}

/**
 * The rules after `budget set`'s flags: each one given replaces its part, `--clear` removes parts,
 * everything else is kept. Refuses (UsageError) when nothing would change, a part is both set and
 * cleared, or a list is malformed; the ranges themselves are checked by core, once.
 */
export function changedBudget(current: BudgetRules, v: Record<string, FlagValue | undefined>): BudgetRules {
  const clear = new Set<string>();
  if (v.clear !== undefined) {
    for (const part of String(v.clear)
      .split(",")
      .map((p) => p.trim())) {
      if (!(CLEARABLE as readonly string[]).includes(part)) {
        throw new UsageError(`--clear takes ${CLEARABLE.join(", ")} (comma-separated), not "${part}"`);
      }
      clear.add(part);
    }
  }
  for (const part of clear) {
    if (v[part] !== undefined) throw new UsageError(`--${part} and --clear ${part} contradict each other`);
  }
  const changes = ["mode", ...PERIODS, "thresholds", "run-cap"].filter((f) => v[f] !== undefined);
  if (changes.length === 0 && clear.size === 0) {
    throw new UsageError(
      "nothing to change: give --mode, --daily, --weekly, --monthly, --thresholds, --run-cap or --clear",
    );
  }
  const next: BudgetRules = {
    mode: (v.mode as BudgetRules["mode"] | undefined) ?? current.mode,
    limits: { ...current.limits },
    thresholds: [...current.thresholds],
    runSpendCapUsd: current.runSpendCapUsd,
  };
  for (const p of PERIODS) {
    if (v[p] !== undefined) next.limits[p] = Number(v[p]);
    if (clear.has(p)) next.limits[p] = null;
  }
  if (v.thresholds !== undefined) next.thresholds = thresholdList(String(v.thresholds));
  if (clear.has("thresholds")) next.thresholds = [];
  if (v["run-cap"] !== undefined) next.runSpendCapUsd = Number(v["run-cap"]);
  if (clear.has("run-cap")) next.runSpendCapUsd = null;
  return next;
}

function thresholdList(raw: string): number[] {
  return raw.split(",").map((part) => {
    const t = part.trim();
    if (!/^\d+$/.test(t)) {
      throw new UsageError(
        `--thresholds is whole percentages, comma-separated, e.g. 50,80,100 (got "${raw}")`,
      );
    }
    return Number(t);
  });
}
