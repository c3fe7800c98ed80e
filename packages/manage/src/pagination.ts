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
