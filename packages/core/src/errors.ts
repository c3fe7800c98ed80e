/** Typed domain failures; each edge (tRPC, wire, CLI) maps them once. Messages are safe to show. */
export type DomainErrorCode =
  | "NOT_FOUND"
  | "FORBIDDEN"
  | "UNAUTHORIZED"
  | "CONFLICT"
  | "INVALID"
  | "LIMIT_EXCEEDED"
  | "BUDGET_UNAVAILABLE"
  | "RATE_LIMITED"
  /** A conditional write (If-Match) found the resource changed since the caller read it. */
  | "PRECONDITION_FAILED";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} not found`);
export const forbidden = (message = "You do not have permission to do that") =>
  new DomainError("FORBIDDEN", message);
export const invalid = (message: string, details?: Record<string, unknown>) =>
  new DomainError("INVALID", message, details);
export const conflict = (message: string) => new DomainError("CONFLICT", message);
export const preconditionFailed = (what: string) =>
  new DomainError("PRECONDITION_FAILED", `${what} changed since you read it; read it again and retry`);
export const limitExceeded = (message: string) => new DomainError("LIMIT_EXCEEDED", message);

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
