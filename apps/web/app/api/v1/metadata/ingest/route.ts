import { mountWire } from "@breakwater/wire";

// SDK metadata ingest (spec §3).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = mountWire("ingest");
