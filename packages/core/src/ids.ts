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
  | "lse"
  | "rpr"
  | "stp"
  | "inc";

/**
 * A prefixed, time-sortable id: `<prefix>_` + 24 lowercase hex (12 of milliseconds since the
 * epoch, 12 random). Matches the wire format of project ids (`proj_` + 24 hex).
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${now.toString(16).padStart(12, "0").slice(-12)}${randomHex12()}`;
}

// Random bytes drawn 4 KiB at a time: one CSPRNG call per ~680 ids instead of one per id (the
// budget check mints an id per reservation on its hot path).
let pool = Buffer.alloc(0);
let poolOffset = 0;
function randomHex12(): string {
  if (poolOffset + 6 > pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  const hex = pool.toString("hex", poolOffset, poolOffset + 6);
  poolOffset += 6;
  return hex;
}

export const PROJECT_ID_RE = /^proj_[0-9a-f]{24}$/;
