import type { PrismaClient } from "@breakwater/db";
import type { Logger } from "pino";
import { InvalidatingCache, type InvalidationBus } from "../cache/invalidating-cache";
import { API_KEY_RE, hashApiKey } from "./api-key-format";
import { API_KEY_CACHE } from "./invalidate-api-key";
import { KnownKeyHashes, LookupBudget, NegativeKeyCache } from "./known-key-hashes";

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
  /** Loads the known-key set (with `knownKeys`); resolves even when Postgres does not answer. */
  start(): Promise<void>;
  stop(): void;
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
 *
 * With `knownKeys` (the SDK API), a key whose hash is not in the in-process set of live keys is
 * refused without I/O unless the lookup budget allows a look (a key whose announcement was lost),
 * and an unknown key once looked up is remembered for ~10 s: a flood of made-up keys costs neither
 * Postgres queries nor slots of the key cache. Call `start()` to load the set.
 */
export function createApiKeyAuthenticator(opts: {
  db: PrismaClient;
  bus?: InvalidationBus;
  /** Safety net only; revocation is pushed through the bus. */
  ttlMs?: number;
  maxEntries?: number;
  log?: Logger;
  /** Refuse keys outside the in-process set of live key hashes without I/O (after `start()`). */
  knownKeys?: boolean;
  /** Lookups per second of keys outside the known set (default 20). */
  lookupsPerSecond?: number;
  /** How long an unknown key is refused without a lookup (default 10 s). */
  negativeTtlMs?: number;
}): ApiKeyAuthenticator {
  const cache = new InvalidatingCache<ApiKeyRecord | null>({
    name: API_KEY_CACHE,
    ttlMs: opts.ttlMs ?? 60_000,
    maxEntries: opts.maxEntries ?? 50_000,
    bus: opts.bus,
    log: opts.log,
    load: (hash) => loadApiKeyRecord(opts.db, hash),
  });
  const known = opts.knownKeys ? new KnownKeyHashes({ db: opts.db, bus: opts.bus, log: opts.log }) : null;
  const negative = new NegativeKeyCache(opts.negativeTtlMs ?? 10_000);
  const budget = new LookupBudget(opts.lookupsPerSecond ?? 20);
  // A key announced on the bus (created, revoked) is no longer "unknown".
  opts.bus?.register(API_KEY_CACHE, (hash) => negative.delete(hash));
  // SHA-256 per request is cheap but not free; the same few keys arrive over and over. Only keys
  // that resolved are remembered, so made-up keys cannot churn this map.
  const hashes = new Map<string, string>();
  const verdict = (rec: ApiKeyRecord | null, now: number): AuthenticatedKey | null => {
    if (!rec || rec.revoked || rec.projectArchived) return null;
    if (rec.expiresAt !== null && rec.expiresAt <= now) return null;
    return rec.caller;
  };
  const lookUp = (key: string, hash: string, now: number) =>
    cache.get(hash).then((rec) => {
      if (rec) {
        known?.add(hash);
        if (hashes.size >= 10_000) hashes.clear();
        hashes.set(key, hash);
      } else {
        negative.add(hash, now);
        // Not found: the entry would only hold a slot a real key could use.
        cache.invalidateLocal(hash);
      }
      return verdict(rec, now);
    });
  return {
    cache,
    start: () => known?.start() ?? Promise.resolve(),
    stop: () => known?.stop(),
    authenticate(authorization, now = Date.now()) {
      const key = bearerKey(authorization);
      if (!key) return null;
      const remembered = hashes.get(key);
      const hash = remembered ?? hashApiKey(key);
      const hit = cache.cached(hash);
      if (hit !== undefined) return verdict(hit, now);
      if (negative.has(hash, now)) return null;
      if (known?.loaded && !known.has(hash) && !budget.take(now)) return null;
      return lookUp(key, hash, now);
    },
  };
}
