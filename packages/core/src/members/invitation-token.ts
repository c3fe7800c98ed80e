import { createHash, randomBytes } from "node:crypto";

/** A fresh accept-link token: 256 random bits, base64url (43 characters). */
export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored for a token: its SHA-256, so a database reader cannot accept an invitation. */
export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
