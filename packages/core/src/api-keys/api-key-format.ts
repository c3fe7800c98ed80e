import { createHash, randomBytes } from "node:crypto";

/** The only key shape the SDKs accept: `sk_proj_` + 64 lowercase hex. */
export const API_KEY_RE = /^sk_proj_[0-9a-f]{64}$/;

/** Mints a new project key (256 random bits). */
export function mintApiKey(): string {
  return `sk_proj_${randomBytes(32).toString("hex")}`;
}

/** SHA-256 (hex) of the whole key: what is stored and looked up. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Short display prefix, enough to tell keys apart in a list. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 14)}…`;
}
