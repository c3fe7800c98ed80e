-- The provider page reads its instance table and its failover feed a page at a time (keyset), so
-- a page costs the same at 100,000 instances as at ten. Each page is an index range scan:

-- The time the next live instance turns stale (the first snapshot at or after the stale cutoff), and
-- the Stale filter of the instance table, most recently seen first by (received_at, sdk_instance_id).
CREATE INDEX "breaker_snapshots_last_seen_idx" ON "breaker_snapshots"("project_id", "provider", "received_at", "sdk_instance_id");

-- The Down and Recovering filters, by instance id within a state. Partial: it holds the few
-- snapshots not closed, so a filter matching five instances never walks the healthy thousands.
CREATE INDEX "breaker_snapshots_unhealthy_idx" ON "breaker_snapshots"("project_id", "provider", "state", "sdk_instance_id") WHERE (state <> 'closed'::"CircuitState");

-- The failover feed, newest first by (timestamp, id), and the fallback-served calls behind the
-- "not re-probed" flag. Partial: it holds the calls a fallback served, not the day's calls, and
-- every day partition (present and future) gets its own.
CREATE INDEX "metadata_events_failover_idx" ON "metadata_events"("project_id", "timestamp", "id") WHERE (is_provider_fallback OR is_model_fallback);
