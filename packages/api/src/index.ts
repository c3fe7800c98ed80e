export { ac, roles, statements } from "./auth/access";
export { AUTH_RATE_LIMIT, createAuthHandler } from "./auth/auth-handler";
export { CLIENT_IP_HEADER, PEER_ADDRESS_HEADER, resolveClientIp } from "./auth/client-ip";
export { type Auth, createAuth, createAuthLimiter, trustedOrigins } from "./auth/create-auth";
export { createContext, type SessionInfo, type TrpcContext } from "./context";
export { toTRPCError } from "./errors";
export { authedProcedure, operatorProcedure, orgProcedure, publicProcedure, router } from "./init";
export { type AppRouter, appRouter, createCaller } from "./root";
export type { FleetLiveMessage } from "./routers/fleet";
