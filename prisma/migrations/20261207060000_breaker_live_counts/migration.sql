-- Fleet reads that do not scale with the fleet (issue 37). The overview and the provider page used
-- to aggregate every snapshot on each view; now:
--   * the number of snapshots per (project, provider) is kept here by statement triggers on insert
--     and delete (live counts come from Redis; stale = total − live);
--   * the rows that are not closed (Down or Recovering, and every open episode) are reached by a
--     partial index, so the "since", open-episode and unprobed figures read only those.

CREATE TABLE "breaker_snapshot_totals" (
    "project_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "total" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "breaker_snapshot_totals_pkey" PRIMARY KEY ("project_id", "provider")
);

ALTER TABLE "breaker_snapshot_totals" ADD CONSTRAINT "breaker_snapshot_totals_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE INDEX "breaker_snapshots_not_closed_idx" ON "breaker_snapshots"("project_id", "provider")
  WHERE "state" <> 'closed';

-- One upsert per (project, provider) a statement touched, in key order (two writers never wait
-- for each other's rows in opposite orders).
CREATE FUNCTION breaker_snapshot_totals_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO breaker_snapshot_totals AS t (project_id, provider, total)
  SELECT project_id, provider, count(*)::int FROM new_rows
  GROUP BY project_id, provider
  ORDER BY project_id COLLATE "C", provider COLLATE "C"
  ON CONFLICT (project_id, provider) DO UPDATE SET total = t.total + EXCLUDED.total;
  RETURN NULL;
END $$;

CREATE FUNCTION breaker_snapshot_totals_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A project's delete cascades to its snapshots and its totals alike: rows already gone stay gone.
  UPDATE breaker_snapshot_totals t SET total = greatest(0, t.total - d.n)
  FROM (
    SELECT project_id, provider, count(*)::int AS n FROM old_rows
    GROUP BY project_id, provider
    ORDER BY project_id COLLATE "C", provider COLLATE "C"
  ) d
  WHERE t.project_id = d.project_id AND t.provider = d.provider;
  RETURN NULL;
END $$;

CREATE TRIGGER breaker_snapshot_totals_insert AFTER INSERT ON "breaker_snapshots"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION breaker_snapshot_totals_on_insert();
CREATE TRIGGER breaker_snapshot_totals_delete AFTER DELETE ON "breaker_snapshots"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION breaker_snapshot_totals_on_delete();

-- The totals of the rows already there, taken while no snapshot can be inserted or deleted.
LOCK TABLE "breaker_snapshots" IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO "breaker_snapshot_totals" (project_id, provider, total)
SELECT project_id, provider, count(*)::int FROM "breaker_snapshots" GROUP BY project_id, provider;
