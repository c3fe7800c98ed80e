import { randomBytes } from "node:crypto";

/** The only shape of a management key: `sk_mgmt_` + 64 lowercase hex (never accepted as an SDK key). */
export const MANAGEMENT_KEY_RE = /^sk_mgmt_[0-9a-f]{64}$/;

/** Mints a management key (256 random bits). */
export function mintManagementKey(): string {
  return `sk_mgmt_${randomBytes(32).toString("hex")}`;
}

/** The management key in an `Authorization: Bearer …` value; null unless it has the minted shape. */
export function bearerManagementKey(authorization: string | null): string | null {
  if (!authorization) return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!m) return null;
  return MANAGEMENT_KEY_RE.test(m[1]!) ? m[1]! : null;
}
