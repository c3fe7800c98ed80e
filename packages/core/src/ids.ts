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
  | "inc"
  | "mk";

/**
 * A prefixed, time-sortable id: `<prefix>_` + 24 lowercase hex (12 of milliseconds since the
 * epoch, 12 random). Matches the wire format of project ids (`proj_` + 24 hex).
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${timeHex(now)}${randomHex12()}`;
}

// The time part is the same for every id minted in one millisecond: formatted once per ms.
let lastMs = Number.NaN;
let lastTimeHex = "";
function timeHex(now: number): string {
  if (now !== lastMs) {
    lastMs = now;
    lastTimeHex = now.toString(16).padStart(12, "0").slice(-12);
  }
  return lastTimeHex;
}

// Random hex drawn 3 KiB of bytes at a time and kept as text: one CSPRNG call and one hex encoding
// per 512 ids, then each id takes a 12-character slice (the budget check mints an id per
// reservation on its hot path; encoding 6 bytes per id cost several times the slice).
const POOL_BYTES = 3072;
let pool = "";
let poolOffset = 0;
function randomHex12(): string {
  if (poolOffset + 12 > pool.length) {
    pool = randomBytes(POOL_BYTES).toString("hex");
    poolOffset = 0;
  }
  const hex = pool.slice(poolOffset, poolOffset + 12);
  poolOffset += 12;
  return hex;
}

export const PROJECT_ID_RE = /^proj_[0-9a-f]{24}$/;
