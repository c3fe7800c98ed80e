/**
 * Errors of the management API as RFC 9457 problem details (`application/problem+json`). Each kind
 * of error has one stable `type` URI (listed in docs/management-api.md); clients switch on it, never
 * on `title` or `detail`, which are for people.
 */
export const PROBLEM_TYPES = {
  "invalid-json": { status: 400, title: "The body is not valid JSON" },
  "bad-request": { status: 400, title: "The request is not valid" },
  unauthorized: { status: 401, title: "A valid management key is required" },
  forbidden: { status: 403, title: "This key may not do that" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  "plan-limit": { status: 409, title: "The organization's plan does not allow this" },
  "idempotency-key-in-use": {
    status: 409,
    title: "A request with this Idempotency-Key is still being answered",
  },
  "precondition-failed": { status: 412, title: "The resource changed since you read it" },
  "payload-too-large": { status: 413, title: "The body is too large" },
  "unsupported-media-type": { status: 415, title: "The body must be application/json" },
  "validation-failed": { status: 422, title: "The request has invalid fields" },
  "idempotency-key-reused": { status: 422, title: "This Idempotency-Key was used with another request" },
  "rate-limited": { status: 429, title: "Too many requests for this key" },
  internal: { status: 500, title: "Something went wrong on our side" },
  unavailable: { status: 503, title: "A backend is temporarily unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** The URI of a problem type (a URN: stable, and never mistaken for a page to fetch). */
export const problemTypeUri = (type: ProblemType) => `urn:breakwater:problem:${type}`;

/**
 * One refused field, and why: a body field by RFC 6901 JSON Pointer (`/name`, `/limits/daily`), or
 * a query parameter by name.
 */
export type FieldError = { pointer: string; detail: string } | { parameter: string; detail: string };

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  /** Field errors of a 422. */
  errors?: FieldError[];
}

/** A problem answer thrown from anywhere in the pipeline and rendered once. */
export class ProblemError extends Error {
  constructor(
    readonly type: ProblemType,
    readonly detail?: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? PROBLEM_TYPES[type].title);
    this.name = "ProblemError";
  }

  get status(): number {
    return PROBLEM_TYPES[this.type].status;
  }

  toProblem(instance?: string): Problem {
    const p: Problem = {
      type: problemTypeUri(this.type),
      title: PROBLEM_TYPES[this.type].title,
      status: this.status,
    };
    if (this.detail) p.detail = this.detail;
    if (instance) p.instance = instance;
    if (this.extra.errors) p.errors = this.extra.errors;
    return p;
  }
}

/** An RFC 6901 pointer for a zod issue path. */
export function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((seg) => `/${String(seg).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
