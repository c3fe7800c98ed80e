import { randomBytes } from "node:crypto";

export type IdPrefix =
  | "org"
  | "user"
  | "mem"
  | "inv"
  | "sess"
  | "acct"
  | "ver"
  | "proj"
  | "key"
  | "plan"
  | "planv"
  | "sub"
  | "ovr"
  | "lim"
  | "thr"
  | "tagr"
  | "card"
  | "sur"
  | "tr"
  | "ep"
  | "evt"
  | "whe"
  | "dlv"
  | "att"
  | "aud"
  | "res"
  | "lse";

/**
 * A prefixed, time-sortable id: `<prefix>_` + 24 lowercase hex (12 of milliseconds since the
 * epoch, 12 random). Matches the wire format of project ids (`proj_` + 24 hex).
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${now.toString(16).padStart(12, "0").slice(-12)}${randomBytes(6).toString("hex")}`;
}

export const PROJECT_ID_RE = /^proj_[0-9a-f]{24}$/;
