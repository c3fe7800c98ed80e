-- AlterTable
ALTER TABLE "price_cards" ADD COLUMN     "long_cache_write_1h_per_mtok" DECIMAL(20,10),
ADD COLUMN     "long_cache_write_5m_per_mtok" DECIMAL(20,10),
ADD COLUMN     "notes" TEXT,
ADD COLUMN     "unit" TEXT NOT NULL DEFAULT 'token',
ADD COLUMN     "unit_prices" JSONB NOT NULL DEFAULT '{}';
