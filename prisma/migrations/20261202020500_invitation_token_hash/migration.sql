-- Invitation accept links carry a random token, of which only the SHA-256 is stored
ALTER TABLE "invitations" ADD COLUMN "token_hash" TEXT;

CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
