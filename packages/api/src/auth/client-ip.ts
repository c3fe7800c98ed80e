import { isIP } from "node:net";

/**
 * The TCP peer address of the request, set by the dashboard's server (apps/web/server.mjs) on
 * every request, overwriting whatever a client sent under that name.
 */
export const PEER_ADDRESS_HEADER = "x-breakwater-peer";

/**
 * The resolved client address handed to better-auth's rate limiter; always overwritten by
 * `withClientIp`, so a client cannot choose its own bucket.
 */
export const CLIENT_IP_HEADER = "x-breakwater-client-ip";

/** "::ffff:10.0.0.1" → "10.0.0.1"; anything that is not an IP address → null. */
function normalizeAddress(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let value = raw.trim();
  if (value.startsWith("[") && value.includes("]")) value = value.slice(1, value.indexOf("]"));
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value)) value = value.slice(7);
  return isIP(value) ? value.toLowerCase() : null;
}

/**
 * The client's address, trusting X-Forwarded-For only as far as `trustedHops` proxies (the
 * TRUST_PROXY setting). The chain is [X-Forwarded-For entries…, peer], the peer being the socket
 * address; each trusted proxy appended the address it saw, so the client is the entry
 * `trustedHops` places from the right (the leftmost entry when the chain is shorter). With 0 hops
 * the header is ignored entirely: it is whatever the client wrote. Null when unknown — including
 * when the peer is (the header chain alone cannot say which entry the last proxy wrote).
 */
export function resolveClientIp(headers: Headers, trustedHops: number): string | null {
  const peer = headers.get(PEER_ADDRESS_HEADER);
  if (!peer) return null;
  if (trustedHops <= 0) return normalizeAddress(peer);
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return normalizeAddress(chain[Math.max(0, chain.length - 1 - trustedHops)]);
}
