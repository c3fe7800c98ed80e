import { z } from "zod";
import { type Ctx, isOperatorActor } from "../context";
import {
  FEATURE_KEYS,
  type FeatureKey,
  type FeatureValue,
  isFeatureKey,
  validateFeatureValue,
} from "../entitlements/features";
import { forbidden, invalid } from "../errors";

/** Throws FORBIDDEN unless the caller is the system (CLI, seed) or a deployment operator. */
export function requireOperator(ctx: Ctx): void {
  if (isOperatorActor(ctx.actor)) return;
  throw forbidden("Only an operator of this installation can do that");
}

/** Field errors of a refused input: dotted path → message (shown beside the form field). */
export type FieldErrors = Record<string, string>;

/**
 * Parses `raw` with `schema`; a failure becomes one INVALID domain error whose message is the
 * first problem and whose details carry every field's message, so a form can mark each field.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const res = schema.safeParse(raw);
  if (res.success) return res.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of res.error.issues) {
    const path = issue.path.map(String).join(".") || "_";
    fieldErrors[path] ??= issue.message;
  }
  const [firstPath, firstMessage] = Object.entries(fieldErrors)[0] ?? ["_", "Invalid input"];
  throw invalid(firstPath === "_" ? firstMessage : `${firstPath}: ${firstMessage}`, { fieldErrors });
}

/** A feature key of the closed catalogue. */
export const featureKeyInput = z
  .string()
  .refine(isFeatureKey, { message: `Unknown feature (known: ${FEATURE_KEYS.join(", ")})` })
  .transform((k) => k as FeatureKey);

/** A JSON feature value, checked against its feature's type by the enclosing schema (one message per type). */
export const featureValueInput = z.unknown().transform((v) => v as FeatureValue);

/** A partial map feature → value; unknown features and values of the wrong type are field errors. */
export const entitlementMapInput = z
  .record(z.string(), z.unknown())
  .superRefine((map, ctx) => {
    for (const [key, value] of Object.entries(map)) {
      if (!isFeatureKey(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: "Unknown feature" });
        continue;
      }
      const problem = validateFeatureValue(key, value);
      if (problem) ctx.addIssue({ code: "custom", path: [key], message: problem });
    }
  })
  .transform((map) => map as Partial<Record<FeatureKey, FeatureValue>>);

/** A price in cents: a whole number ≥ 0. */
export const priceCentsInput = z
  .number({ message: "Price must be a number" })
  .int("Price must be whole cents")
  .min(0, "Price cannot be negative")
  .max(100_000_000, "Price is too large");

/** Refuses a value that does not fit its feature's type (used where key and value come separately). */
export function checkFeatureValue(key: FeatureKey, value: unknown, path = "value"): FeatureValue {
  const problem = validateFeatureValue(key, value);
  if (problem) throw invalid(problem, { fieldErrors: { [path]: problem } });
  return value as FeatureValue;
}
