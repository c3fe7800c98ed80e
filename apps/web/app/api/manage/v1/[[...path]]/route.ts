import { manageRouteHandler } from "@breakwater/manage";

// In production apps/web/server.mjs answers /api/manage/v1 itself, before Next.js; this route
// serves the same pipeline under `next dev`, so the API behaves alike either way.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = manageRouteHandler;
export const POST = manageRouteHandler;
export const PUT = manageRouteHandler;
export const PATCH = manageRouteHandler;
export const DELETE = manageRouteHandler;
