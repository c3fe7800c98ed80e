import { type Deps, maintainEventPartitions } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/**
 * Keeps metadata_events' daily partitions: created a week ahead, whole partitions dropped past every
 * project's retention. A lock it could not get in time (busy ingest, a long rollup) leaves the
 * rest to the next run: partitions exist days ahead, and a late drop loses nothing.
 */
export function eventPartitions(deps: Deps, stopping?: AbortSignal) {
  return async (job: Job) => {
    parsePayload("event-partitions", job.data);
    try {
      const r = await maintainEventPartitions(deps.db, { signal: stopping });
      if (r.created.length > 0 || r.dropped.length > 0 || r.deletedFromDefault > 0 || r.deferred)
        deps.log.info(
          {
            created: r.created,
            movedFromDefault: r.movedFromDefault,
            dropped: r.dropped,
            deletedFromDefault: r.deletedFromDefault,
            deferred: r.deferred,
          },
          "event partitions maintained",
        );
      return r;
    } catch (err) {
      if (
        (err as { code?: string }).code === "55P03" ||
        /lock timeout/i.test(String((err as Error).message))
      ) {
        deps.log.warn(
          { err: (err as Error).message },
          "event partitions: lock not granted in time, next run continues",
        );
        return { deferred: "lock timeout" };
      }
      throw err;
    }
  };
}
