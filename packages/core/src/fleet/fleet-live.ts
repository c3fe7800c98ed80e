import type { PrismaClient } from "@breakwater/db";
import { publishOn, type RedisClient, RedisPubSub, type RedisTarget } from "@breakwater/queue";
import type { Logger } from "pino";
import type { CircuitState } from "./breaker-state";

/** Redis pub/sub channel carrying visible fleet changes of every organization (one connection per replica). */
export const FLEET_CHANNEL = "bw:fleet";

/**
 * One visible change of the fleet: a state change, a new or revived instance, an episode closed by
 * expiry, or a provider incident that opened, changed or resolved (sdkInstanceId "" for those).
 */
export interface FleetChange {
  organizationId: string;
  projectId: string;
  provider: string;
  sdkInstanceId: string;
  /** The instance's state after the change. */
  state: CircuitState;
  kind: "transition" | "new_instance" | "revived" | "expired" | "incident";
  /**
   * Where the instance was counted before the change — a live state, "stale", or null for its first
   * report — so an open page can move it between counts at once (absent for incidents).
   */
  from?: CircuitState | "stale" | null;
  /** When Breakwater recorded it (ISO), for page-update latency. */
  at: string;
}

const orgOfProject = new Map<string, string>();

/** The organization of a project; a project never changes organization, so answers are kept (bounded). */
export async function projectOrganization(db: PrismaClient, projectId: string): Promise<string | null> {
  const hit = orgOfProject.get(projectId);
  if (hit) return hit;
  const p = await db.project.findUnique({ where: { id: projectId }, select: { organizationId: true } });
  if (!p) return null;
  if (orgOfProject.size >= 50_000) orgOfProject.clear();
  orgOfProject.set(projectId, p.organizationId);
  return p.organizationId;
}

/** Changes per pub/sub message: an outage's batch leaves in a few messages, each of bounded size. */
const CHANGES_PER_MESSAGE = 250;

/**
 * Publishes visible fleet changes on `bw:fleet`, a JSON array of changes per message (a single
 * change object is also understood by subscribers). Best effort: a page that misses one refetches
 * when its stream reconnects, so a Redis failure never fails the report that caused it.
 */
export async function publishFleetChanges(
  deps: { db: PrismaClient; redis?: RedisClient; log: Logger },
  changes: Omit<FleetChange, "organizationId" | "at">[],
): Promise<void> {
  if (!deps.redis || changes.length === 0) return;
  try {
    const at = new Date().toISOString();
    const redis = deps.redis;
    const orgs = new Map<string, string | null>();
    for (const c of changes) {
      if (!orgs.has(c.projectId)) orgs.set(c.projectId, await projectOrganization(deps.db, c.projectId));
    }
    const msgs: FleetChange[] = [];
    for (const c of changes) {
      const organizationId = orgs.get(c.projectId);
      if (organizationId) msgs.push({ organizationId, ...c, at });
    }
    // An outage's thousands of changes a second cost a few PUBLISH commands, not one each.
    const sends: Promise<void>[] = [];
    for (let n = 0; n < msgs.length; n += CHANGES_PER_MESSAGE) {
      sends.push(publishOn(redis, FLEET_CHANNEL, JSON.stringify(msgs.slice(n, n + CHANGES_PER_MESSAGE))));
    }
    await Promise.all(sends);
  } catch (err) {
    deps.log.warn({ err }, "fleet change not published");
  }
}

export type FleetListener = (change: FleetChange) => void;

/**
 * One Redis subscription per process fanned out in-process to the live pages of each organization.
 * A listener only ever receives changes of the organization it subscribed with.
 */
export class FleetLiveHub {
  private readonly byOrg = new Map<string, Set<FleetListener>>();
  private readonly gapListeners = new Set<() => void>();
  private subscriber: RedisPubSub | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly opts: { redis: RedisTarget; log: Logger }) {}

  private start(): Promise<void> {
    this.starting ??= (async () => {
      const sub = new RedisPubSub({
        target: this.opts.redis,
        log: this.opts.log,
        connectionName: "breakwater-fleet-live",
      });
      this.subscriber = sub;
      await sub.subscribe(
        FLEET_CHANNEL,
        (message) => {
          let parsed: FleetChange | FleetChange[];
          try {
            parsed = JSON.parse(message) as FleetChange | FleetChange[];
          } catch {
            return;
          }
          // An array from publishFleetChanges, or one change (what earlier versions published).
          for (const change of Array.isArray(parsed) ? parsed : [parsed]) {
            const listeners = this.byOrg.get(change.organizationId);
            if (!listeners) continue;
            for (const l of listeners) l(change);
          }
        },
        () => {
          // Changes published while the subscription was down are lost: every page refetches.
          for (const g of this.gapListeners) g();
        },
      );
    })().catch((err: unknown) => {
      this.starting = undefined;
      const s = this.subscriber;
      this.subscriber = undefined;
      void s?.close();
      throw err;
    });
    return this.starting;
  }

  /**
   * Resolves once the subscription is active; the returned function removes the listener. Rejects
   * after `timeoutMs` when Redis does not answer, so a page falls back to polling instead of waiting.
   */
  async subscribe(
    organizationId: string,
    listener: FleetListener,
    timeoutMs = 3_000,
    onGap?: () => void,
  ): Promise<() => void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        this.start(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("fleet pub/sub not ready")), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    const set = this.byOrg.get(organizationId) ?? new Set<FleetListener>();
    set.add(listener);
    this.byOrg.set(organizationId, set);
    if (onGap) this.gapListeners.add(onGap);
    return () => {
      if (onGap) this.gapListeners.delete(onGap);
      set.delete(listener);
      if (set.size === 0 && this.byOrg.get(organizationId) === set) this.byOrg.delete(organizationId);
    };
  }

  async close(): Promise<void> {
    const s = this.subscriber;
    this.subscriber = undefined;
    this.starting = undefined;
    this.byOrg.clear();
    this.gapListeners.clear();
    if (s) await s.close();
  }
}
