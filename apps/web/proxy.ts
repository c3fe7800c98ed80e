import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";

/**
 * Optimistic gate for dashboard pages: no session cookie → the sign-in page, remembering where the
 * user was going. The layouts verify the session for real; this only saves a render.
 */
export function proxy(request: NextRequest) {
  if (getSessionCookie(request)) return NextResponse.next();
  const url = request.nextUrl.clone();
  const next = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  url.pathname = "/sign-in";
  url.search = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Only dashboard pages: the SDK API, auth/tRPC endpoints and health checks are never redirected.
  matcher: [
    "/",
    "/onboarding",
    "/fleet/:path*",
    "/projects/:path*",
    "/usage/:path*",
    "/webhooks/:path*",
    "/plans/:path*",
    "/settings/:path*",
    "/members/:path*",
    "/audit/:path*",
  ],
};
