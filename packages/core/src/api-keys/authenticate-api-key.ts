import type { PrismaClient } from "@breakwater/db";
import type { Logger } from "pino";
import { InvalidatingCache, type InvalidationBus } from "../cache/invalidating-cache";
import { API_KEY_RE, hashApiKey } from "./api-key-format";
import { API_KEY_CACHE } from "./invalidate-api-key";

/** What the hot path needs to know about a key; cached per process by the key's hash. */
export interface ApiKeyRecord {
  keyId: string;
  projectId: string;
  organizationId: string;
  readOnly: boolean;
  /** Epoch ms, or null for a key that never expires. */
  expiresAt: number | null;
  revoked: boolean;
  projectArchived: boolean;
  /** The caller this key resolves to (built once per load, shared by every request). */
  caller: AuthenticatedKey;
}

/** The caller a valid key resolves to. */
export interface AuthenticatedKey {
  keyId: string;
  projectId: string;
  organizationId: string;
  readOnly: boolean;
}

export interface ApiKeyAuthenticator {
  /**
   * The key behind an `Authorization` header value, or null for anything that must be a 401. A
   * warm cache answers synchronously (no promise, no I/O); a miss returns a promise.
   */
  authenticate(
    authorization: string | null,
    now?: number,
  ): AuthenticatedKey | null | Promise<AuthenticatedKey | null>;
  readonly cache: InvalidatingCache<ApiKeyRecord | null>;
}

/** Extracts the key from `Bearer <key>`; null unless it has the one shape Breakwater mints. */
export function bearerKey(authorization: string | null): string | null {
  if (!authorization) return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!m) return null;
  const key = m[1]!;
  return API_KEY_RE.test(key) ? key : null;
}

/** Loads one key row by hash (null when no key has that hash). */
export async function loadApiKeyRecord(db: PrismaClient, hash: string): Promise<ApiKeyRecord | null> {
  const row = await db.apiKey.findUnique({
    where: { hash },
    select: {
      id: true,
      projectId: true,
      readOnly: true,
      expiresAt: true,
      revokedAt: true,
      project: { select: { organizationId: true, archivedAt: true } },
    },
  });
  if (!row) return null;
  const caller: AuthenticatedKey = Object.freeze({
    keyId: row.id,
    projectId: row.projectId,
    organizationId: row.project.organizationId,
    readOnly: row.readOnly,
  });
  return {
    keyId: row.id,
    projectId: row.projectId,
    organizationId: row.project.organizationId,
    readOnly: row.readOnly,
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
    revoked: row.revokedAt !== null,
    projectArchived: row.project.archivedAt !== null,
    caller,
  };
}

/**
 * API-key authentication for the SDK hot path: SHA-256 of the bearer key looked up through an
 * in-process cache (a warm hit does no I/O) that the invalidation bus clears on every replica when
 * a key is revoked. Malformed, unknown, revoked and expired keys all resolve to null (one 401).
 */
export function createApiKeyAuthenticator(opts: {
  db: PrismaClient;
  bus?: InvalidationBus;
  /** Safety net only; revocation is pushed through the bus. */
  ttlMs?: number;
  maxEntries?: number;
  log?: Logger;
}): ApiKeyAuthenticator {
  const cache = new InvalidatingCache<ApiKeyRecord | null>({
    name: API_KEY_CACHE,
    ttlMs: opts.ttlMs ?? 60_000,
    maxEntries: opts.maxEntries ?? 50_000,
    bus: opts.bus,
    log: opts.log,
    load: (hash) => loadApiKeyRecord(opts.db, hash),
  });
  // SHA-256 per request is cheap but not free; the same few keys arrive over and over.
  const hashes = new Map<string, string>();
  const hashOf = (key: string) => {
    let h = hashes.get(key);
    if (h === undefined) {
      if (hashes.size >= 10_000) hashes.clear();
      h = hashApiKey(key);
      hashes.set(key, h);
    }
    return h;
  };
  const verdict = (rec: ApiKeyRecord | null, now: number): AuthenticatedKey | null => {
    if (!rec || rec.revoked || rec.projectArchived) return null;
    if (rec.expiresAt !== null && rec.expiresAt <= now) return null;
    return rec.caller;
  };
  return {
    cache,
    authenticate(authorization, now = Date.now()) {
      const key = bearerKey(authorization);
      if (!key) return null;
      const hash = hashOf(key);
      const hit = cache.cached(hash);
      if (hit !== undefined) return verdict(hit, now);
      return cache.get(hash).then((rec) => verdict(rec, now));
    },
  };
}
