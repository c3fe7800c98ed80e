import { mountWire } from "@breakwater/wire";

// SDK breaker reports (spec §4); the handler reads the project from the path.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = mountWire("dispatch");
