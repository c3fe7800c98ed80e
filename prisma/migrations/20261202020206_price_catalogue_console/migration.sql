-- CreateTable
CREATE TABLE "price_reprice_runs" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "total" INTEGER NOT NULL DEFAULT 0,
    "repriced" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "cursor" BIGINT NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    "finished_at" TIMESTAMPTZ(6),

    CONSTRAINT "price_reprice_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_reprice_hours" (
    "run_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "price_reprice_hours_pkey" PRIMARY KEY ("run_id","project_id","hour")
);

-- CreateTable
CREATE TABLE "operator_setup_tokens" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "used_at" TIMESTAMPTZ(6),
    "used_by_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_setup_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "price_reprice_runs_provider_model_created_at_idx" ON "price_reprice_runs"("provider", "model", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "operator_setup_tokens_token_hash_key" ON "operator_setup_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "metadata_events_unpriced_idx" ON "metadata_events"("provider", "model", "id") WHERE (NOT priced);

-- AddForeignKey
ALTER TABLE "price_reprice_hours" ADD CONSTRAINT "price_reprice_hours_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "price_reprice_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
