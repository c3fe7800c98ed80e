import { mountWire } from "@breakwater/wire";

// Liveness probe (spec §7).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = mountWire("health");
