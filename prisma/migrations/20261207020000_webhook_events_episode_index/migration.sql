-- Every closing webhook message (an episode's closed, an incident's updated/resolved) looks up its
-- opening one by episode id before it is sent; without this index that lookup scanned the whole
-- table, so each delivery cost more the more events there were (issue 41).
CREATE INDEX "webhook_events_episode_id_idx" ON "webhook_events"("episode_id");
