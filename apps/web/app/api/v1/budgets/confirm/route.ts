import { mountWire } from "@breakwater/wire";

// SDK confirm (spec §2).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = mountWire("confirm");
