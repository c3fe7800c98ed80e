-- The provider page reads its instance table and its failover feed a page at a time (keyset), so
-- a page costs the same at 100,000 instances as at ten. Each page is an index range scan.

-- The Down and Recovering filters, by instance id within a state. Partial: it holds the snapshots
-- not closed, so a filter matching five instances never walks the healthy thousands, and a page
-- during an outage stops at its 50 rows instead of sorting every Down instance. It has the leading
-- columns and the predicate of breaker_snapshots_not_closed_idx (the live counts' unhealthy rows,
-- the incident evaluation), so it serves those reads too and replaces it: one partial index to
-- maintain on every heartbeat flush of a snapshot that is not closed, not two.
CREATE INDEX "breaker_snapshots_unhealthy_idx" ON "breaker_snapshots"("project_id", "provider", "state", "sdk_instance_id") WHERE (state <> 'closed'::"CircuitState");
DROP INDEX "breaker_snapshots_not_closed_idx";

-- The failover feed, newest first by (timestamp, id), and the fallback-served calls behind the
-- "not re-probed" flag. Partial: it holds the calls a fallback served, not the day's calls, and
-- every day partition (present and future) gets its own.
CREATE INDEX "metadata_events_failover_idx" ON "metadata_events"("project_id", "timestamp", "id") WHERE (is_provider_fallback OR is_model_fallback);
