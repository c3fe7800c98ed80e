export { ac, roles, statements } from "./auth/access";
export { AUTH_RATE_LIMIT, type Auth, createAuth, trustedOrigins } from "./auth/create-auth";
export { createContext, type SessionInfo, type TrpcContext } from "./context";
export { toTRPCError } from "./errors";
export { authedProcedure, operatorProcedure, orgProcedure, publicProcedure, router } from "./init";
export { type AppRouter, appRouter, createCaller } from "./root";
export type { FleetLiveMessage } from "./routers/fleet";
