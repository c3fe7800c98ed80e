-- AlterTable
ALTER TABLE "breaker_snapshots" ADD COLUMN     "state_since" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "response_snippet" TEXT;

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "claimed_until" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "previous_secret" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(6);

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "is_test" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "webhook_outbox" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(6),
ADD COLUMN     "outcome" TEXT,
ADD COLUMN     "svix_message_id" TEXT;
