import { mountWire } from "@breakwater/wire";

// Readiness: Postgres and Redis reachable.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = mountWire("ready");
