import { mountWire } from "@breakwater/wire";

// SDK untracked-surface reports (spec §6).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = mountWire("untrackedSurfaces");
