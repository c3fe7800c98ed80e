-- AlterTable
ALTER TABLE "usage_rollups" ADD COLUMN     "latency_histogram" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "saved_by_fallback_calls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "unpriced_input_tokens" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "unpriced_output_tokens" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "usage_failover_rollups" (
    "project_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(6) NOT NULL,
    "provider" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "saved" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "usage_failover_rollups_pkey" PRIMARY KEY ("project_id","hour","provider","reason")
);

-- CreateTable
CREATE TABLE "usage_tag_rollups" (
    "project_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(6) NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DECIMAL(20,10) NOT NULL DEFAULT 0,
    "unpriced_calls" INTEGER NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_tag_rollups_pkey" PRIMARY KEY ("project_id","hour","key","value")
);

-- CreateTable
CREATE TABLE "usage_retention_floors" (
    "project_id" TEXT NOT NULL,
    "retained_from" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "usage_retention_floors_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "usage_rollup_watermarks" (
    "id" TEXT NOT NULL,
    "received_before" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "usage_rollup_watermarks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "metadata_events_received_at_idx" ON "metadata_events"("received_at");
