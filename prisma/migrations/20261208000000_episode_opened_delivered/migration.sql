-- Whether an episode's circuit_breaker_opened event was deliverable, kept on the episode: closing
-- it (a closed report) used to look the opening event up in webhook_events, one random heap read
-- per episode, which was most of an outage's recovery burst (40-60 ms per batch of 150 closes).
ALTER TABLE "breaker_episodes" ADD COLUMN "opened_delivered" BOOLEAN;

-- The open episodes, the only ones a close still reads; closed ones keep null.
UPDATE "breaker_episodes" e SET "opened_delivered" = EXISTS (
  SELECT 1 FROM "webhook_events" w
  WHERE w."episode_id" = e."id" AND w."type" = 'circuit_breaker_opened' AND w."deliverable"
)
WHERE e."closed_at" IS NULL;
