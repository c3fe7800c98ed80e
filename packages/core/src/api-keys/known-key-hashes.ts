import type { PrismaClient } from "@breakwater/db";
import type { Logger } from "pino";
import type { InvalidationBus } from "../cache/invalidating-cache";
import { API_KEY_CACHE } from "./invalidate-api-key";

/** Hex digits of a key hash kept per key: 64 bits, a prefilter (the full hash is checked after). */
const PREFIX = 16;

/**
 * The hashes of every live API key of the deployment, in memory, so the SDK API refuses a key it
 * has never heard of without any I/O: a flood of made-up keys costs a hash and a set lookup each.
 * Loaded at start and every `reloadMs`; a key created meanwhile is announced on the invalidation
 * bus (its hash is added), and a lost announcement is covered by the authenticator's bounded
 * lookups. Until the first load succeeds `loaded` is false and every key takes the lookup path.
 */
export class KnownKeyHashes {
  private hashes = new Set<string>();
  private loading: Set<string> | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  loaded = false;

  constructor(
    private readonly opts: { db: PrismaClient; bus?: InvalidationBus; log?: Logger; reloadMs?: number },
  ) {
    // Create and revoke both announce the key's hash: either way it is a key of this deployment
    // (a revoked one is refused by the full check). "*" means messages may have been lost.
    opts.bus?.register(API_KEY_CACHE, (hash) => {
      if (hash === "*") void this.reload();
      else this.add(hash);
    });
  }

  has(hash: string): boolean {
    return this.hashes.has(hash.slice(0, PREFIX));
  }

  add(hash: string): void {
    const p = hash.slice(0, PREFIX);
    this.hashes.add(p);
    this.loading?.add(p);
  }

  /** Loads the set; keeps the previous one (or stays unloaded) when Postgres does not answer. */
  async reload(): Promise<void> {
    if (this.loading) return;
    const added = new Set<string>();
    this.loading = added;
    try {
      const rows = await this.opts.db.apiKey.findMany({ where: { revokedAt: null }, select: { hash: true } });
      const next = new Set<string>(rows.map((r) => r.hash.slice(0, PREFIX)));
      // Announced while the query ran: the snapshot may predate them.
      for (const p of added) next.add(p);
      this.hashes = next;
      this.loaded = true;
    } catch (err) {
      this.opts.log?.warn({ err }, "API key hashes not loaded; unknown keys are looked up instead");
    } finally {
      this.loading = null;
    }
  }

  async start(): Promise<void> {
    await this.reload();
    this.timer ??= setInterval(() => void this.reload(), this.opts.reloadMs ?? 300_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * Unknown well-formed keys remembered for `ttlMs` (bounded, oldest dropped first), so the same
 * made-up key is looked up at most once per TTL.
 */
export class NegativeKeyCache {
  private readonly until = new Map<string, number>();
  constructor(
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {}
  has(hash: string, now: number): boolean {
    const t = this.until.get(hash);
    if (t === undefined) return false;
    if (t > now) return true;
    this.until.delete(hash);
    return false;
  }
  add(hash: string, now: number): void {
    this.until.delete(hash);
    if (this.until.size >= this.maxEntries) {
      const oldest = this.until.keys().next().value;
      if (oldest !== undefined) this.until.delete(oldest);
    }
    this.until.set(hash, now + this.ttlMs);
  }
  delete(hash: string): void {
    this.until.delete(hash);
  }
  get size(): number {
    return this.until.size;
  }
}

/** At most `perSecond` lookups of keys outside the known set (a token bucket, burst = perSecond). */
export class LookupBudget {
  private tokens: number;
  private at = 0;
  constructor(private readonly perSecond = 20) {
    this.tokens = perSecond;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
