-- metadata_events becomes a table range-partitioned by the event's own "timestamp" (one partition
-- per UTC day, plus a DEFAULT partition so an insert for a day with no partition never fails).
-- The SDK sends the same timestamp when it replays an event, so a replay lands in the partition of
-- the original and the unique keys (which must contain the partition key) still catch it.
-- Partitions are created ahead and dropped past retention by the worker's event-partitions job.
--
-- The existing rows move: the old table is renamed, the partitioned one created with the same
-- columns, a partition made for every UTC day that holds rows (within ten years back and a week
-- ahead; anything else goes to DEFAULT), the rows copied with their ids, the old table dropped.
-- The id sequence is kept (detached from the old table first), so ids keep counting up.

-- 1. Move the old table and its index names out of the way.
ALTER TABLE "metadata_events" RENAME TO "metadata_events_unpartitioned";
ALTER TABLE "metadata_events_unpartitioned" RENAME CONSTRAINT "metadata_events_pkey" TO "metadata_events_unpartitioned_pkey";
ALTER INDEX "metadata_events_project_id_call_id_attempt_index_key" RENAME TO "metadata_events_unpartitioned_call_key";
ALTER INDEX "metadata_events_project_id_timestamp_sdk_instance_id_key" RENAME TO "metadata_events_unpartitioned_legacy_key";
ALTER INDEX "metadata_events_project_id_timestamp_idx" RENAME TO "metadata_events_unpartitioned_ts_idx";
ALTER INDEX "metadata_events_project_id_agent_run_id_idx" RENAME TO "metadata_events_unpartitioned_run_idx";
ALTER INDEX "metadata_events_received_at_idx" RENAME TO "metadata_events_unpartitioned_received_idx";
ALTER INDEX "metadata_events_unpriced_idx" RENAME TO "metadata_events_unpartitioned_unpriced_idx";
ALTER SEQUENCE "metadata_events_id_seq" OWNED BY NONE;
ALTER TABLE "metadata_events_unpartitioned" ALTER COLUMN "id" DROP DEFAULT;

-- 2. The partitioned table (same columns; the primary key and the unique keys gain "timestamp",
--    and the primary key also "project_id", the column Citus would distribute the table by).
CREATE TABLE "metadata_events" (
    "id" BIGINT NOT NULL DEFAULT nextval('metadata_events_id_seq'),
    "project_id" TEXT NOT NULL,
    "call_id" UUID NOT NULL,
    "attempt_index" INTEGER NOT NULL DEFAULT 0,
    "timestamp" TIMESTAMPTZ(6) NOT NULL,
    "sdk_instance_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "modality" TEXT NOT NULL DEFAULT 'text',
    "status" TEXT NOT NULL,
    "input_tokens" INTEGER NOT NULL,
    "output_tokens" INTEGER NOT NULL,
    "token_details" JSONB,
    "media_usage" JSONB,
    "latency_ms" INTEGER NOT NULL,
    "is_model_fallback" BOOLEAN NOT NULL,
    "is_provider_fallback" BOOLEAN NOT NULL DEFAULT false,
    "requested_provider" TEXT,
    "requested_model" TEXT,
    "failover_reason" TEXT,
    "failover_error_class" TEXT,
    "possibly_succeeded" BOOLEAN,
    "service_tier" TEXT,
    "agent_run_id" TEXT NOT NULL,
    "parent_agent_run_id" TEXT,
    "agent_run_name" TEXT,
    "provider_region" TEXT,
    "tags" JSONB,
    "lease_id" TEXT,
    "deny_source" TEXT,
    "deny_reason" TEXT,
    "denied_by_period" TEXT,
    "estimated_output_bound" INTEGER,
    "velocity_flags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "receipt_aggregate_count" INTEGER,
    "receipt_pricing_input_tokens" INTEGER,
    "cost_usd" DECIMAL(20,10),
    "avoided_cost_usd" DECIMAL(20,10),
    "priced" BOOLEAN NOT NULL,
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "metadata_events_pkey" PRIMARY KEY ("id", "timestamp", "project_id")
) PARTITION BY RANGE ("timestamp");
ALTER SEQUENCE "metadata_events_id_seq" OWNED BY "metadata_events"."id";

CREATE TABLE "metadata_events_default" PARTITION OF "metadata_events" DEFAULT;

-- 3. One partition per UTC day that holds rows, and the coming week.
DO $$
DECLARE
  d date;
BEGIN
  FOR d IN
    SELECT DISTINCT ("timestamp" AT TIME ZONE 'UTC')::date FROM "metadata_events_unpartitioned"
     WHERE "timestamp" >= now() - interval '3660 days' AND "timestamp" < now() + interval '8 days'
    UNION
    SELECT g::date FROM generate_series((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day') g
  LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "metadata_events" FOR VALUES FROM (%L) TO (%L)',
      'metadata_events_p' || to_char(d, 'YYYYMMDD'),
      d::timestamp AT TIME ZONE 'UTC',
      (d + 1)::timestamp AT TIME ZONE 'UTC');
  END LOOP;
END $$;

-- 4. The rows, ids and all (indexes are built after the copy: faster than row by row).
INSERT INTO "metadata_events" (
  "id", "project_id", "call_id", "attempt_index", "timestamp", "sdk_instance_id", "model", "provider", "modality",
  "status", "input_tokens", "output_tokens", "token_details", "media_usage", "latency_ms", "is_model_fallback",
  "is_provider_fallback", "requested_provider", "requested_model", "failover_reason", "failover_error_class",
  "possibly_succeeded", "service_tier", "agent_run_id", "parent_agent_run_id", "agent_run_name", "provider_region",
  "tags", "lease_id", "deny_source", "deny_reason", "denied_by_period", "estimated_output_bound", "velocity_flags",
  "receipt_aggregate_count", "receipt_pricing_input_tokens", "cost_usd", "avoided_cost_usd", "priced", "received_at")
SELECT
  "id", "project_id", "call_id", "attempt_index", "timestamp", "sdk_instance_id", "model", "provider", "modality",
  "status", "input_tokens", "output_tokens", "token_details", "media_usage", "latency_ms", "is_model_fallback",
  "is_provider_fallback", "requested_provider", "requested_model", "failover_reason", "failover_error_class",
  "possibly_succeeded", "service_tier", "agent_run_id", "parent_agent_run_id", "agent_run_name", "provider_region",
  "tags", "lease_id", "deny_source", "deny_reason", "denied_by_period", "estimated_output_bound", "velocity_flags",
  "receipt_aggregate_count", "receipt_pricing_input_tokens", "cost_usd", "avoided_cost_usd", "priced", "received_at"
FROM "metadata_events_unpartitioned";

DROP TABLE "metadata_events_unpartitioned";

-- 5. Indexes (on the parent: every partition, present and future, gets its own).
CREATE UNIQUE INDEX "metadata_events_project_id_call_id_attempt_index_timestamp_key" ON "metadata_events"("project_id", "call_id", "attempt_index", "timestamp");
CREATE UNIQUE INDEX "metadata_events_project_id_timestamp_sdk_instance_id_key" ON "metadata_events"("project_id", "timestamp", "sdk_instance_id");
CREATE INDEX "metadata_events_project_id_timestamp_idx" ON "metadata_events"("project_id", "timestamp");
CREATE INDEX "metadata_events_project_id_agent_run_id_idx" ON "metadata_events"("project_id", "agent_run_id");
CREATE INDEX "metadata_events_received_at_idx" ON "metadata_events"("received_at");
CREATE INDEX "metadata_events_unpriced_idx" ON "metadata_events"("provider", "model", "id") WHERE (NOT priced);

-- 6. Where raw events are known complete for every project: the event-partitions job raises it to
-- the end of each partition it drops, and no rollup hour before it is ever rebuilt.
CREATE TABLE "event_retention_horizons" (
    "id" TEXT NOT NULL,
    "retained_from" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "event_retention_horizons_pkey" PRIMARY KEY ("id")
);
