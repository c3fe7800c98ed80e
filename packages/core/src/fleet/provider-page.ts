import type { Ctx } from "../context";
import { invalid, notFound } from "../errors";

/**
 * The project a provider page reads, or NOT_FOUND: unknown, archived, or another tenant's (never
 * FORBIDDEN, so a project id of another organization reveals nothing).
 */
export async function visibleProject(ctx: Ctx, projectId: string): Promise<{ id: string; name: string }> {
  const project = await ctx.db.project.findUnique({
    where: { id: projectId },
    select: { id: true, name: true, organizationId: true, archivedAt: true },
  });
  if (
    !project ||
    project.archivedAt ||
    (ctx.organizationId && project.organizationId !== ctx.organizationId)
  ) {
    throw notFound("Project");
  }
  return { id: project.id, name: project.name };
}

/**
 * A timestamp as a keyset key, to the microsecond Postgres keeps (a JS Date keeps milliseconds, so a
 * key read back through one could skip or repeat rows that share a millisecond). Select it with this
 * and compare with `$key::timestamptz`.
 */
export const timestampKeySql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const TIMESTAMP_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** True for a key `timestampKeySql` could have produced (a real instant, so the cast never fails). */
export function isTimestampKey(key: unknown): key is string {
  if (typeof key !== "string" || !TIMESTAMP_KEY.test(key)) return false;
  const ms = Date.parse(`${key.slice(0, 23)}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 23) === key.slice(0, 23);
}

/** An opaque page cursor: the last row's keys, base64url JSON. */
export const encodeCursor = (keys: Record<string, string>) =>
  Buffer.from(JSON.stringify(keys)).toString("base64url");

/** The keys of a cursor `encodeCursor` made, or INVALID ("This page link is not valid"). */
export function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    const keys: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (keys && typeof keys === "object" && !Array.isArray(keys)) return keys as Record<string, unknown>;
  } catch {
    // falls through to the one error below
  }
  throw badCursor();
}

export const badCursor = () =>
  invalid("This page link is not valid", { fieldErrors: { cursor: "This page link is not valid" } });
