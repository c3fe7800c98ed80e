import { getRuntime } from "@/lib/server/runtime";

// better-auth serves sign-up, sign-in, sign-out, sessions and organizations under /api/auth/*,
// behind the client-address resolution and the per-account sign-in limit.
const handler = (request: Request) => getRuntime().authHandler(request);

export { handler as GET, handler as POST };
