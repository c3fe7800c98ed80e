import { createHash } from "node:crypto";
import { z } from "zod";
import { type Ctx, requireRole } from "../context";
import { invalid } from "../errors";
import { projectInTenant } from "../runs/stop-agent-run";
import { TAG_KEY_MAX, TAG_VALUE_MAX, TAGS_MAX_KEYS } from "../validation/text-rules";
import { invalidateProjectBudget } from "./budget-runtime";
import type { Period } from "./windows";

/** A USD amount a rule can hold: positive, finite, at most a billion. */
export const usdAmount = z
  .number({ error: "Enter an amount in USD" })
  .finite("Enter an amount in USD")
  .gt(0, "Must be greater than 0")
  .max(1_000_000_000, "Must be at most 1,000,000,000");

/** Threshold alert percentages: whole numbers 1–1000, at most 10, stored ascending without repeats. */
export const thresholdPercents = z
  .array(
    z
      .number({ error: "Thresholds are whole percentages" })
      .int("Thresholds are whole percentages")
      .min(1, "Thresholds must be between 1 and 1000 %")
      .max(1000, "Thresholds must be between 1 and 1000 %"),
  )
  .max(10, "At most 10 thresholds")
  .transform((a) => [...new Set(a)].sort((x, y) => x - y));

export interface TagRuleDto {
  id: string;
  name: string;
  selector: Record<string, string>;
  period: Period;
  limitUsd: number;
  enabled: boolean;
  updatedAt: string;
}

export interface BudgetSettingsDto {
  projectId: string;
  projectName: string;
  mode: "alert_only" | "hard_deny";
  limits: Record<Period, number | null>;
  thresholds: number[];
  runSpendCapUsd: number | null;
  tagRules: TagRuleDto[];
}

/** Tag rule selector: 1–10 tag pairs with the ingest limits on keys and values. */
export const tagSelector = z
  .record(
    z
      .string()
      .trim()
      .min(1, "Tag names cannot be empty")
      .max(TAG_KEY_MAX, `Tag names are at most ${TAG_KEY_MAX} characters`),
    z
      .string()
      .trim()
      .min(1, "Tag values cannot be empty")
      .max(TAG_VALUE_MAX, `Tag values are at most ${TAG_VALUE_MAX} characters`),
  )
  .refine((s) => Object.keys(s).length >= 1, { message: "Add at least one selector tag (name=value)" })
  .refine((s) => Object.keys(s).length <= TAGS_MAX_KEYS, {
    message: `At most ${TAGS_MAX_KEYS} selector tags`,
  })
  .refine((s) => Object.keys(s).every((k) => !(k in Object.prototype)), {
    message: "That tag name is reserved",
  });

export function toTagRuleDto(r: {
  id: string;
  name: string;
  selector: unknown;
  period: Period;
  limitUsd: { toString(): string };
  enabled: boolean;
  updatedAt: Date;
}): TagRuleDto {
  return {
    id: r.id,
    name: r.name,
    // Keys in name order: jsonb keeps its own order, which reads as random in the dashboard.
    selector: Object.fromEntries(
      Object.entries((r.selector ?? {}) as Record<string, string>).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      ),
    ),
    period: r.period,
    limitUsd: Number(r.limitUsd.toString()),
    enabled: r.enabled,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A project's budget mode, limits, thresholds, run cap and tag rules; any role in its organization. */
export async function getBudgetSettings(ctx: Ctx, input: { projectId: string }): Promise<BudgetSettingsDto> {
  requireRole(ctx, "viewer");
  const project = await projectInTenant(ctx, input.projectId);
  const [limits, rules] = await Promise.all([
    ctx.db.budgetLimit.findMany({ where: { projectId: project.id } }),
    ctx.db.tagRule.findMany({ where: { projectId: project.id }, orderBy: { createdAt: "asc" } }),
  ]);
  const byPeriod: Record<Period, number | null> = { daily: null, weekly: null, monthly: null };
  for (const l of limits) byPeriod[l.period] = Number(l.limitUsd.toString());
  return {
    projectId: project.id,
    projectName: project.name,
    mode: project.mode,
    limits: byPeriod,
    thresholds: [...project.alertThresholds].sort((a, b) => a - b),
    runSpendCapUsd: project.runSpendCapUsd === null ? null : Number(project.runSpendCapUsd.toString()),
    tagRules: rules.map(toTagRuleDto),
  };
}

/** The replaceable part of a project's budget: what `updateBudgetSettings` sets. */
export interface BudgetRules {
  mode: "alert_only" | "hard_deny";
  limits: Record<Period, number | null>;
  thresholds: number[];
  runSpendCapUsd: number | null;
}

/**
 * A strong entity tag of a project's budget rules (mode, limits, thresholds, run cap): equal rules
 * give equal tags, on every replica, whoever wrote them (the dashboard, the API, the CLI).
 */
export function budgetRulesEtag(rules: BudgetRules): string {
  const canonical = JSON.stringify([
    rules.mode,
    rules.limits.daily,
    rules.limits.weekly,
    rules.limits.monthly,
    [...rules.thresholds].sort((a, b) => a - b),
    rules.runSpendCapUsd,
  ]);
  return `"${createHash("sha256").update(canonical).digest("base64url").slice(0, 27)}"`;
}

/** Refuses with INVALID and per-field messages (the form shows each beside its field). */
export function invalidFields(fieldErrors: Record<string, string>): never {
  const first = Object.values(fieldErrors)[0] ?? "Invalid input";
  throw invalid(first, { fieldErrors });
}

/** After a committed rule change: every replica's next check sees it (pub/sub invalidation). */
export async function publishBudgetChange(ctx: Ctx, projectId: string): Promise<void> {
  await invalidateProjectBudget(ctx, projectId);
}
