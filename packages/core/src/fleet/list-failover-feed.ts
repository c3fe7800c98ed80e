import { Prisma } from "@breakwater/db";
import { z } from "zod";
import type { Ctx } from "../context";
import {
  badCursor,
  decodeCursor,
  encodeCursor,
  isTimestampKey,
  timestampKeySql,
  visibleProject,
} from "./provider-page";

export const listFailoverFeedInput = z.object({
  projectId: z.string().min(1),
  provider: z.string().min(1).max(64),
  /** The previous page's nextCursor (opaque). */
  cursor: z.string().min(1).max(500).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  now: z.date().optional(),
});

export interface FailoverFeedItem {
  id: string;
  timestamp: string;
  sdkInstanceId: string;
  requestedProvider: string | null;
  requestedModel: string | null;
  servedProvider: string;
  servedModel: string;
  reason: string | null;
  errorClass: string | null;
  latencyMs: number;
  status: string;
  /** True when the call was served by another provider than the one requested. */
  providerFallback: boolean;
}

export interface FailoverFeedPageDto {
  items: FailoverFeedItem[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

interface FeedRow {
  /** The bigint id as text (named apart from `id`, so ORDER BY id is the number, not this text). */
  event_id: string;
  timestamp: Date;
  ts_key: string;
  sdk_instance_id: string;
  requested_provider: string | null;
  requested_model: string | null;
  provider: string;
  model: string;
  failover_reason: string | null;
  failover_error_class: string | null;
  latency_ms: number;
  status: string;
  is_provider_fallback: boolean;
}

const INT8_MAX = 9223372036854775807n;

/**
 * The provider page's failover feed, newest first, a page at a time: calls of the last 24 h where
 * a fallback stepped in for the provider (requested of it, served by another) or the provider served
 * for another (a provider fallback to it, or a model fallback within it). Keyset on (timestamp, id)
 * descending over the partial index of fallback calls, (project_id, timestamp, id) WHERE
 * is_provider_fallback OR is_model_fallback: a page reads its own rows, never the day's calls.
 * Viewer role (checked by the caller); another tenant's project is NOT_FOUND.
 */
export async function listFailoverFeed(
  ctx: Ctx,
  raw: z.input<typeof listFailoverFeedInput>,
): Promise<FailoverFeedPageDto> {
  const input = listFailoverFeedInput.parse(raw);
  const project = await visibleProject(ctx, input.projectId);
  const now = input.now ?? new Date();
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const after = input.cursor ? cursorKeys(input.cursor) : null;
  const p = input.provider;

  const rows = await ctx.db.$queryRaw<FeedRow[]>`
    SELECT id::text AS event_id, "timestamp", ${Prisma.raw(timestampKeySql('"timestamp"'))} AS ts_key,
      sdk_instance_id, requested_provider, requested_model, provider, model, failover_reason,
      failover_error_class, latency_ms, status, is_provider_fallback
    FROM metadata_events
    WHERE project_id = ${project.id} AND "timestamp" >= ${dayAgo}
      AND (is_provider_fallback OR is_model_fallback)
      AND ((is_provider_fallback AND (requested_provider = ${p} OR provider = ${p}))
        OR (is_model_fallback AND provider = ${p}))
      ${after ? Prisma.sql`AND ("timestamp", id) < (${after.ts}::timestamptz, ${after.id}::bigint)` : Prisma.empty}
    ORDER BY metadata_events."timestamp" DESC, metadata_events.id DESC
    LIMIT ${input.limit + 1}`;
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    nextCursor:
      rows.length > input.limit && last ? encodeCursor({ t: last.ts_key, id: last.event_id }) : null,
    items: page.map((e) => ({
      id: e.event_id,
      timestamp: e.timestamp.toISOString(),
      sdkInstanceId: e.sdk_instance_id,
      requestedProvider: e.requested_provider,
      requestedModel: e.requested_model,
      servedProvider: e.provider,
      servedModel: e.model,
      reason: e.failover_reason,
      errorClass: e.failover_error_class,
      latencyMs: e.latency_ms,
      status: e.status,
      providerFallback: e.is_provider_fallback,
    })),
  };
}

function cursorKeys(cursor: string): { ts: string; id: string } {
  const keys = decodeCursor(cursor);
  const id = keys.id;
  if (!isTimestampKey(keys.t) || typeof id !== "string" || !/^\d{1,19}$/.test(id) || BigInt(id) > INT8_MAX)
    throw badCursor();
  return { ts: keys.t, id };
}
