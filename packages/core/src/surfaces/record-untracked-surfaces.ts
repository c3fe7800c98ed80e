import type { PrismaClient } from "@breakwater/db";
import { newId } from "../ids";

/** One content-free report of SDK traffic the SDK could not meter (spec §6), already validated. */
export interface UntrackedSurfaceItem {
  provider: string;
  clientShape: string;
  mode: string;
  surface: string;
  ruleKind: string;
  capabilityScope: string | null;
  posture: string;
  occurrences: number;
  /** Canonical UTC text at µs precision. */
  firstSeenAt: string;
  lastSeenAt: string;
  sdkInstanceId: string;
  reportId: string;
}

/** The observation identity the SDK aggregates by; at most one report per key per batch. */
export function observationKey(
  r: Pick<UntrackedSurfaceItem, "provider" | "clientShape" | "mode" | "surface">,
) {
  return `${r.provider}\u0000${r.clientShape}\u0000${r.mode}\u0000${r.surface}`;
}

/**
 * Stores a batch of untracked-surface reports in one statement. A replayed `report_id` (SDK retry)
 * is ignored by the (project, report_id) unique key, so it is never counted twice. Returns how many
 * reports were new.
 */
export async function recordUntrackedSurfaces(
  deps: { db: PrismaClient },
  projectId: string,
  items: UntrackedSurfaceItem[],
): Promise<{ stored: number }> {
  if (items.length === 0) return { stored: 0 };
  const col = <K extends keyof UntrackedSurfaceItem>(k: K) => items.map((i) => i[k]);
  const stored = await deps.db.$executeRawUnsafe(
    `INSERT INTO untracked_surface_reports
       (id, project_id, report_id, provider, client_shape, mode, surface, rule_kind, capability_scope,
        posture, occurrences, first_seen_at, last_seen_at, sdk_instance_id)
     SELECT v.id, $1, v.report_id, v.provider, v.client_shape, v.mode, v.surface, v.rule_kind,
            v.capability_scope, v.posture, v.occurrences, v.first_seen_at, v.last_seen_at, v.sdk_instance_id
       FROM unnest($2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::int[], $12::timestamptz[], $13::timestamptz[], $14::text[])
            AS v(id, report_id, provider, client_shape, mode, surface, rule_kind, capability_scope, posture,
                 occurrences, first_seen_at, last_seen_at, sdk_instance_id)
     ON CONFLICT (project_id, report_id) DO NOTHING`,
    projectId,
    items.map(() => newId("sur")),
    col("reportId"),
    col("provider"),
    col("clientShape"),
    col("mode"),
    col("surface"),
    col("ruleKind"),
    col("capabilityScope"),
    col("posture"),
    col("occurrences"),
    col("firstSeenAt"),
    col("lastSeenAt"),
    col("sdkInstanceId"),
  );
  return { stored };
}
