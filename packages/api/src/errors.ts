import { type DomainErrorCode, isDomainError } from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";

/** The one map from domain failures to tRPC codes (the wire API has its own). */
const CODES: Record<DomainErrorCode, TRPCError["code"]> = {
  NOT_FOUND: "NOT_FOUND",
  FORBIDDEN: "FORBIDDEN",
  UNAUTHORIZED: "UNAUTHORIZED",
  CONFLICT: "CONFLICT",
  INVALID: "BAD_REQUEST",
  // The request is well formed; the plan is what stands in the way (a clear message says so).
  LIMIT_EXCEEDED: "PRECONDITION_FAILED",
  BUDGET_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  PRECONDITION_FAILED: "CONFLICT",
};

/** Maps a thrown domain or validation error to a TRPCError with a message safe to show; else null. */
export function toTRPCError(err: unknown): TRPCError | null {
  if (isDomainError(err)) {
    return new TRPCError({ code: CODES[err.code], message: err.message, cause: err });
  }
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return new TRPCError({
      code: "BAD_REQUEST",
      message: `${field}${issue?.message ?? "Invalid input"}`,
      cause: err,
    });
  }
  return null;
}

/** Per-field messages of a refused input (dotted path → message), for forms to show beside each field. */
export function fieldErrorsOf(cause: unknown): Record<string, string> | undefined {
  if (isDomainError(cause)) {
    const fe = cause.details?.fieldErrors;
    return fe && typeof fe === "object" ? (fe as Record<string, string>) : undefined;
  }
  if (cause instanceof ZodError) {
    const out: Record<string, string> = {};
    for (const issue of cause.issues) out[issue.path.map(String).join(".") || "_"] ??= issue.message;
    return out;
  }
  return undefined;
}
