import { mountWire } from "@breakwater/wire";

// The generated OpenAPI document of the SDK API.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = mountWire("openapi");
