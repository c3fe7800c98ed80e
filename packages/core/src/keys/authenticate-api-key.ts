import type { PrismaClient } from "@breakwater/db";
import { InvalidatingCache, type InvalidationBus } from "../cache/invalidating-cache";
import { API_KEY_RE, hashApiKey } from "../tenancy/api-key-format";
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
}

/** The caller a valid key resolves to. */
export interface AuthenticatedKey {
  keyId: string;
  projectId: string;
  organizationId: string;
  readOnly: boolean;
}

export interface ApiKeyAuthenticator {
  /** The key behind an `Authorization` header value, or null for anything that must be a 401. */
  authenticate(authorization: string | null, now?: number): Promise<AuthenticatedKey | null>;
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
  return {
    keyId: row.id,
    projectId: row.projectId,
    organizationId: row.project.organizationId,
    readOnly: row.readOnly,
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
    revoked: row.revokedAt !== null,
    projectArchived: row.project.archivedAt !== null,
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
}): ApiKeyAuthenticator {
  const cache = new InvalidatingCache<ApiKeyRecord | null>({
    name: API_KEY_CACHE,
    ttlMs: opts.ttlMs ?? 60_000,
    maxEntries: opts.maxEntries ?? 50_000,
    bus: opts.bus,
    load: (hash) => loadApiKeyRecord(opts.db, hash),
  });
  return {
    cache,
    async authenticate(authorization, now = Date.now()) {
      const key = bearerKey(authorization);
      if (!key) return null;
      const rec = await cache.get(hashApiKey(key));
      if (!rec || rec.revoked || rec.projectArchived) return null;
      if (rec.expiresAt !== null && rec.expiresAt <= now) return null;
      return {
        keyId: rec.keyId,
        projectId: rec.projectId,
        organizationId: rec.organizationId,
        readOnly: rec.readOnly,
      };
    },
  };
}
