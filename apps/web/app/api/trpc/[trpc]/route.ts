import { appRouter, createContext } from "@breakwater/api";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getRuntime } from "@/lib/server/runtime";

function handler(req: Request) {
  const { deps, auth, fleetLive } = getRuntime();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ deps, auth, headers: req.headers, fleetLive }),
    onError({ error, path }) {
      // Expected failures (NOT_FOUND, FORBIDDEN…) are answers, not incidents.
      if (error.code === "INTERNAL_SERVER_ERROR")
        deps.log.error({ err: error.cause ?? error, path }, "trpc error");
    },
  });
}

export { handler as GET, handler as POST };
