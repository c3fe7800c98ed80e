import type { z } from "zod";

/** One item of a FastAPI-style validation error. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A transport-neutral answer: the Next mount turns it into a Response, the lean server writes it. */
export interface WireResult {
  status: number;
  /** Exact body bytes (already serialised JSON), or null for an empty body. */
  body: string | null;
  headers?: Record<string, string>;
}

/** A JSON answer with exactly `body` serialised (no extra keys, no pretty printing). */
export function json(status: number, body: unknown, headers?: Record<string, string>): WireResult {
  return { status, body: JSON.stringify(body), headers };
}

/** A JSON answer from an already serialised body (the hot path builds its bytes itself). */
export function rawJson(status: number, text: string, headers?: Record<string, string>): WireResult {
  return { status, body: text, headers };
}

export const INVALID_API_KEY = '{"detail":"Invalid API key"}';
export const READ_ONLY_KEY =
  '{"detail":{"code":"read_only_key","message":"read-only project key cannot write"}}';
export const BUDGET_UNAVAILABLE = '{"detail":"Budget backend temporarily unavailable; retry"}';
export const SERVICE_UNAVAILABLE = '{"detail":"Service temporarily unavailable; retry"}';

export const unauthorized = () => rawJson(401, INVALID_API_KEY);
export const readOnlyKey = () => rawJson(403, READ_ONLY_KEY);
export const budgetUnavailable = () => rawJson(503, BUDGET_UNAVAILABLE);
export const serviceUnavailable = () => rawJson(503, SERVICE_UNAVAILABLE);
export const internalError = () => rawJson(500, '{"detail":"Internal Server Error"}');
export const detail = (status: number, message: string) => json(status, { detail: message });
export const notFound = (message = "Not Found") => detail(404, message);
export const methodNotAllowed = () => detail(405, "Method Not Allowed");
export const payloadTooLarge = () => detail(413, "Request body too large");
export const noContent = (): WireResult => ({ status: 204, body: null });

/** 429 with the body and header the SDK protocol defines (`retry_after` in whole seconds ≥ 1). */
export function rateLimited(retryAfterSeconds: number): WireResult {
  const n = Math.max(1, Math.ceil(retryAfterSeconds));
  return rawJson(429, `{"detail":"Rate limit exceeded","retry_after":${n}}`, { "retry-after": String(n) });
}

export function validationFailed(items: ValidationItem[]): WireResult {
  return json(422, { detail: items });
}

export function jsonInvalid(): WireResult {
  return validationFailed([{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }]);
}

export function bodyMissing(): WireResult {
  return validationFailed([{ loc: ["body"], msg: "Field required", type: "missing" }]);
}

/** Turns a WireResult into a fetch Response (the Next.js mount). */
export function toResponse(r: WireResult): Response {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.body !== null) headers["content-type"] ??= "application/json";
  return new Response(r.body, { status: r.status, headers });
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return { present: false, value: undefined };
    if (!Object.hasOwn(cur, key as string)) return { present: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[key as string];
  }
  return { present: true, value: cur };
}

function safeLoc(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((p) => (typeof p === "number" ? p : String(p)));
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  number: ["float_type", "Input should be a valid number"],
  int: ["int_type", "Input should be a valid integer"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["model_attributes_type", "Input should be a valid dictionary or object to extract fields from"],
  record: ["dict_type", "Input should be a valid dictionary"],
};

/**
 * Maps zod issues to the FastAPI/pydantic 422 item list: `loc` starts at "body" (then
 * `prefix`, e.g. the event index), missing fields are `missing`, unknown keys `extra_forbidden`.
 * Messages never echo the submitted value.
 */
export function zodIssuesToItems(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: (string | number)[] = [],
): ValidationItem[] {
  const out: ValidationItem[] = [];
  for (const issue of issues) {
    const loc = ["body", ...prefix, ...safeLoc(issue.path)];
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) {
          out.push({ loc: [...loc, key], msg: "Extra inputs are not permitted", type: "extra_forbidden" });
        }
        break;
      case "invalid_type": {
        const at = valueAt(input, issue.path);
        if (!at.present) {
          out.push({ loc, msg: "Field required", type: "missing" });
        } else if (
          issue.expected === "int" &&
          typeof at.value === "number" &&
          Number.isFinite(at.value) &&
          !Number.isInteger(at.value)
        ) {
          out.push({
            loc,
            msg: "Input should be a valid integer, got a number with a fractional part",
            type: "int_from_float",
          });
        } else if (issue.expected === "int" && typeof at.value === "number" && Number.isInteger(at.value)) {
          out.push({ loc, msg: "Input should be a safe integer", type: "int_type" });
        } else {
          const [type, msg] = TYPE_NAMES[issue.expected] ?? [
            "type_error",
            `Input should be a valid ${issue.expected}`,
          ];
          out.push({ loc, msg, type });
        }
        break;
      }
      case "invalid_value":
        out.push({
          loc,
          msg: `Input should be ${issue.values.map((v) => `'${String(v)}'`).join(", ")}`,
          type: issue.values.length === 1 ? "literal_error" : "enum",
        });
        break;
      case "too_big": {
        const max = String(issue.maximum);
        if (issue.origin === "string") {
          out.push({ loc, msg: `String should have at most ${max} characters`, type: "string_too_long" });
        } else if (issue.origin === "array" || issue.origin === "set") {
          out.push({ loc, msg: `List should have at most ${max} items after validation`, type: "too_long" });
        } else {
          out.push({ loc, msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" });
        }
        break;
      }
      case "too_small": {
        const min = String(issue.minimum);
        if (issue.origin === "string") {
          out.push({ loc, msg: `String should have at least ${min} characters`, type: "string_too_short" });
        } else if (issue.origin === "array" || issue.origin === "set") {
          out.push({
            loc,
            msg: `List should have at least ${min} items after validation`,
            type: "too_short",
          });
        } else {
          out.push({
            loc,
            msg: `Input should be greater than or equal to ${min}`,
            type: "greater_than_equal",
          });
        }
        break;
      }
      case "invalid_format":
        out.push({
          loc,
          msg: `String should match the ${issue.format} format`,
          type: "string_pattern_mismatch",
        });
        break;
      case "custom": {
        const params = (issue as { params?: { pydanticType?: string } }).params;
        const type = params?.pydanticType ?? "value_error";
        out.push({
          loc,
          msg: type === "value_error" ? `Value error, ${issue.message}` : issue.message,
          type,
        });
        break;
      }
      default:
        out.push({ loc, msg: "Invalid value", type: "value_error" });
    }
  }
  return out;
}
