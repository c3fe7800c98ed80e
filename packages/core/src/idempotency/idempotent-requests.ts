import type { PrismaClient } from "@breakwater/db";

/** How long the first answer to an idempotent POST is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** A stored first answer. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  /** This request is the first with the key: answer it, then `completeIdempotentRequest` (or `releaseIdempotentRequest`). */
  | { state: "claimed" }
  /** The same request was answered before: replay this. */
  | { state: "replay"; answer: StoredAnswer }
  /** The key was used with another request. */
  | { state: "mismatch" }
  /** The first request with this key is still being answered. */
  | { state: "in_flight" };

/**
 * Claims an idempotency key for one caller (a management key) and one request (its hash): the
 * first claim wins (a unique row, so two replicas racing with the same key cannot both proceed);
 * later claims replay the stored answer, or are told the key belongs to another request or is
 * still in flight. A row older than 24 h no longer counts and is replaced.
 */
export async function claimIdempotentRequest(
  db: PrismaClient,
  input: { keyId: string; idempotencyKey: string; requestHash: string },
  now = new Date(),
): Promise<IdempotencyClaim> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db.$executeRaw`
      INSERT INTO management_idempotency (key_id, idempotency_key, request_hash, created_at)
      VALUES (${input.keyId}, ${input.idempotencyKey}, ${input.requestHash}, ${now})
      ON CONFLICT (key_id, idempotency_key) DO NOTHING`;
    if (inserted === 1) return { state: "claimed" };
    const row = await db.managementIdempotency.findUnique({
      where: { keyId_idempotencyKey: { keyId: input.keyId, idempotencyKey: input.idempotencyKey } },
    });
    if (!row) continue; // released meanwhile: claim again
    if (row.createdAt <= expired) {
      await db.managementIdempotency.deleteMany({
        where: { keyId: input.keyId, idempotencyKey: input.idempotencyKey, createdAt: row.createdAt },
      });
      continue;
    }
    if (row.requestHash !== input.requestHash) return { state: "mismatch" };
    if (row.status === null || row.body === null) return { state: "in_flight" };
    return {
      state: "replay",
      answer: { status: row.status, headers: (row.headers ?? {}) as Record<string, string>, body: row.body },
    };
  }
  return { state: "in_flight" };
}

/** Stores the first answer of a claimed key, to be replayed for 24 h. */
export async function completeIdempotentRequest(
  db: PrismaClient,
  input: { keyId: string; idempotencyKey: string },
  answer: StoredAnswer,
): Promise<void> {
  await db.managementIdempotency.updateMany({
    where: { keyId: input.keyId, idempotencyKey: input.idempotencyKey },
    data: { status: answer.status, headers: answer.headers, body: answer.body },
  });
}

/** Gives a claimed key back (the request failed in a way worth retrying: a 5xx, a 429). */
export async function releaseIdempotentRequest(
  db: PrismaClient,
  input: { keyId: string; idempotencyKey: string },
): Promise<void> {
  await db.managementIdempotency.deleteMany({
    where: { keyId: input.keyId, idempotencyKey: input.idempotencyKey, status: null },
  });
}

/** Deletes stored answers older than 24 h (the worker's retention sweep); returns how many. */
export async function pruneIdempotentRequests(db: PrismaClient, now = new Date()): Promise<number> {
  const { count } = await db.managementIdempotency.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - IDEMPOTENCY_TTL_MS) } },
  });
  return count;
}
