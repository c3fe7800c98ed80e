-- AlterTable
-- Incident settings: threshold % (null = the built-in rule), minimum duration and quiet period in seconds
ALTER TABLE "projects" ADD COLUMN     "incident_min_duration_secs" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "incident_quiet_secs" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "incident_threshold_pct" INTEGER,
ADD CONSTRAINT "projects_incident_settings_check" CHECK (
  (incident_threshold_pct IS NULL OR incident_threshold_pct BETWEEN 1 AND 100)
  AND incident_min_duration_secs >= 0 AND incident_quiet_secs >= 0);

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "format" TEXT NOT NULL DEFAULT 'standard',
ADD COLUMN     "routing_key" TEXT,
ADD CONSTRAINT "webhook_endpoints_format_check" CHECK ("format" IN ('standard', 'slack', 'pagerduty'));

-- CreateTable
CREATE TABLE "provider_incidents" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "threshold_since" TIMESTAMPTZ(6) NOT NULL,
    "opened_at" TIMESTAMPTZ(6),
    "last_down_at" TIMESTAMPTZ(6) NOT NULL,
    "resolved_at" TIMESTAMPTZ(6),
    "affected_count" INTEGER NOT NULL DEFAULT 0,
    "live_count" INTEGER NOT NULL DEFAULT 0,
    "peak_count" INTEGER NOT NULL DEFAULT 0,
    "peak_share" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "crossed" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
    "instances" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "samples" JSONB NOT NULL DEFAULT '[]',
    "failovers" INTEGER NOT NULL DEFAULT 0,
    "calls_saved" INTEGER NOT NULL DEFAULT 0,
    "fallback_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "provider_incidents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "provider_incidents_status_check" CHECK ("status" IN ('pending', 'open', 'resolved'))
);

-- At most one unresolved (pending or open) incident per project and provider: two replicas
-- evaluating the same reports at once can never both open one.
CREATE UNIQUE INDEX "provider_incidents_one_unresolved" ON "provider_incidents"("project_id", "provider") WHERE (resolved_at IS NULL);

-- Open incidents are what the fleet overview and the sweep read.
CREATE INDEX "provider_incidents_unresolved_idx" ON "provider_incidents"("organization_id") WHERE (resolved_at IS NULL);

-- CreateIndex
CREATE INDEX "provider_incidents_project_id_provider_opened_at_idx" ON "provider_incidents"("project_id", "provider", "opened_at");

-- CreateIndex
CREATE INDEX "provider_incidents_organization_id_opened_at_idx" ON "provider_incidents"("organization_id", "opened_at");

-- AddForeignKey
ALTER TABLE "provider_incidents" ADD CONSTRAINT "provider_incidents_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
