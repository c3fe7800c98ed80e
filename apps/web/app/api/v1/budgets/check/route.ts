import { mountWire } from "@breakwater/wire";

// SDK pre-flight budget check (spec §1); the same handler the lean SDK server runs.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = mountWire("check");
