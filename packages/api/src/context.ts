import type { Deps, FleetLiveHub } from "@breakwater/core";
import type { Auth } from "./auth/create-auth";

/** The signed-in session as the dashboard API sees it. */
export interface SessionInfo {
  userId: string;
  email: string;
  name: string;
  isOperator: boolean;
  activeOrganizationId: string | null;
}

/** What every tRPC procedure receives: process dependencies, the auth instance, and the caller's session. */
export interface TrpcContext {
  deps: Deps;
  auth: Auth;
  /** Request headers, forwarded to better-auth when a procedure changes the session. */
  headers: Headers;
  session: SessionInfo | null;
  /** This process's fan-out of `bw:fleet` (absent where nothing subscribes, e.g. server callers). */
  fleetLive?: FleetLiveHub;
}

/** Builds the tRPC context of one request from its headers (cookie session via better-auth). */
export async function createContext(opts: {
  deps: Deps;
  auth: Auth;
  headers: Headers;
  fleetLive?: FleetLiveHub;
}): Promise<TrpcContext> {
  const found = await opts.auth.api.getSession({ headers: opts.headers });
  const session: SessionInfo | null = found
    ? {
        userId: found.user.id,
        email: found.user.email,
        name: found.user.name,
        isOperator: found.user.isOperator === true,
        activeOrganizationId: found.session.activeOrganizationId ?? null,
      }
    : null;
  return { deps: opts.deps, auth: opts.auth, headers: opts.headers, session, fleetLive: opts.fleetLive };
}
