-- The management REST API (/api/manage/v1, issue 38): its keys (stored hashed, like project keys)
-- and the first answers to idempotent POSTs, replayed to retries for 24 hours.

-- CreateEnum
CREATE TYPE "ManagementKeyScope" AS ENUM ('read', 'write', 'operator');

-- CreateTable
CREATE TABLE "management_keys" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT,
    "name" TEXT NOT NULL,
    "scope" "ManagementKeyScope" NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(6),
    "expires_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "management_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "management_idempotency" (
    "key_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "management_idempotency_pkey" PRIMARY KEY ("key_id","idempotency_key")
);

-- CreateIndex
CREATE UNIQUE INDEX "management_keys_hash_key" ON "management_keys"("hash");

-- CreateIndex
CREATE INDEX "management_keys_organization_id_created_at_idx" ON "management_keys"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "management_idempotency_created_at_idx" ON "management_idempotency"("created_at");

-- AddForeignKey
ALTER TABLE "management_keys" ADD CONSTRAINT "management_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
