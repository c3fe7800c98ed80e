import { getRuntime } from "@/lib/server/runtime";

// better-auth serves sign-up, sign-in, sign-out, sessions and organizations under /api/auth/*.
const handler = (request: Request) => getRuntime().auth.handler(request);

export { handler as GET, handler as POST };
