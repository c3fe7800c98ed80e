import { isDomainError } from "@breakwater/core";
import { z } from "zod";
import { ProblemError } from "./problem";

/** The cursor parameters every list takes. */
export const pageQuery = z.object({
  limit: z.coerce
    .number({ error: "limit is a whole number from 1 to 100" })
    .int("limit is a whole number from 1 to 100")
    .min(1, "limit is a whole number from 1 to 100")
    .max(100, "limit is a whole number from 1 to 100")
    .default(20),
  starting_after: z.string().min(1).max(200).optional(),
});
export type PageQuery = z.output<typeof pageQuery>;

/**
 * One page of a list in its stable order (the use case's: oldest first, by id on ties): the
 * items after `starting_after` (an id from the previous page), at most `limit`, and whether more
 * follow. An unknown cursor is refused rather than silently restarting the list.
 */
export function paginate<T extends { id: string }>(
  items: T[],
  q: PageQuery,
): { data: T[]; has_more: boolean } {
  let start = 0;
  if (q.starting_after !== undefined) {
    const at = items.findIndex((i) => i.id === q.starting_after);
    if (at < 0) {
      throw new ProblemError("validation-failed", "starting_after is not an id of this list", {
        errors: [{ parameter: "starting_after", detail: "No item of this list has that id" }],
      });
    }
    start = at + 1;
  }
  const data = items.slice(start, start + q.limit);
  return { data, has_more: start + q.limit < items.length };
}

/**
 * Rethrows a core refusal of a list's input with its fields renamed to the query parameters they
 * came from (core says `cursor`, the API `starting_after`); anything else is rethrown as is.
 */
export function asQueryProblem(names: Record<string, string>): (err: unknown) => never {
  return (err) => {
    if (isDomainError(err) && err.code === "INVALID") {
      const fe = (err.details?.fieldErrors ?? {}) as Record<string, string>;
      const errors = Object.entries(fe).map(([k, detail]) => ({ parameter: names[k] ?? k, detail }));
      // Core's message names its own fields; the field errors say it in the API's names.
      throw new ProblemError("validation-failed", errors.length ? undefined : err.message, { errors });
    }
    throw err;
  };
}
