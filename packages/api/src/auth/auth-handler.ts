import { createHash } from "node:crypto";
import type { FixedWindowLimiter, RateLimitRule } from "@breakwater/core";
import { CLIENT_IP_HEADER, PEER_ADDRESS_HEADER, resolveClientIp } from "./client-ip";

/**
 * Sign-in limits. Per client address (better-auth's limiter, counters in Redis): 300 auth calls
 * a minute, 20 sign-in or sign-up attempts a minute — better-auth's default (3 per 10 s) locks
 * out a team behind one NAT. Per account (keyed on the normalized email, so rotating addresses
 * does not help): 10 attempts per 15 minutes, forgotten on a successful sign-in. Together they
 * make password guessing useless while one wrong-password streak costs a user minutes at most.
 */
export const AUTH_RATE_LIMIT = {
  window: 60,
  max: 300,
  credentials: { window: 60, max: 20 },
  account: { window: 15 * 60, max: 10 },
} as const satisfies Record<string, number | RateLimitRule>;

/** The same body and header better-auth's own limiter answers with, so the form reads both alike. */
export function tooManyRequests(retryAfter: number): Response {
  return new Response(JSON.stringify({ message: "Too many requests. Please try again later." }), {
    status: 429,
    statusText: "Too Many Requests",
    headers: {
      "Content-Type": "application/json",
      "X-Retry-After": String(retryAfter),
      "Retry-After": String(retryAfter),
    },
  });
}

/** The key of an account's sign-in counter: a digest, so Redis never holds the address itself. */
export function accountLimitKey(email: string): string {
  const normalized = email.normalize("NFKC").trim().toLowerCase();
  return `acct:${createHash("sha256").update(normalized).digest("base64url")}`;
}

function emailOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const email = parsed && typeof parsed === "object" ? (parsed as { email?: unknown }).email : undefined;
    return typeof email === "string" && email.trim() ? email : null;
  } catch {
    return null;
  }
}

export interface AuthHandlerOptions {
  /** The better-auth request handler (`auth.handler`). */
  handle: (request: Request) => Promise<Response>;
  limiter: FixedWindowLimiter;
  /** TRUST_PROXY: how many proxies' X-Forwarded-For entries to believe. */
  trustedHops: number;
  /**
   * Whether x-breakwater-peer was written by the dashboard's own server (apps/web/server.mjs);
   * otherwise (`next dev`, a bare `next start`) it is dropped as client-written. Default: trusted.
   */
  peerHeaderTrusted?: () => boolean;
}

/**
 * Wraps better-auth's handler for the dashboard's /api/auth route: resolves the client address
 * from the socket peer (and X-Forwarded-For only as far as TRUST_PROXY allows) into the one
 * header better-auth reads, and applies the per-account sign-in limit before the password is
 * checked.
 */
export function createAuthHandler(opts: AuthHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers = new Headers(request.headers);
    headers.delete(CLIENT_IP_HEADER);
    if (opts.peerHeaderTrusted && !opts.peerHeaderTrusted()) headers.delete(PEER_ADDRESS_HEADER);
    const ip = resolveClientIp(headers, opts.trustedHops);
    if (ip) headers.set(CLIENT_IP_HEADER, ip);

    const isSignIn = request.method === "POST" && new URL(request.url).pathname.endsWith("/sign-in/email");
    if (!isSignIn) return opts.handle(new Request(request, { headers }));

    const body = await request.text();
    const email = emailOf(body);
    const accountKey = email ? accountLimitKey(email) : null;
    if (accountKey) {
      const decision = await opts.limiter.consume(accountKey, AUTH_RATE_LIMIT.account);
      if (!decision.allowed) return tooManyRequests(decision.retryAfter);
    }
    const response = await opts.handle(new Request(request.url, { method: "POST", headers, body }));
    if (accountKey && response.ok) await opts.limiter.reset(accountKey);
    return response;
  };
}
