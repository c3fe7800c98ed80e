import { mountWire } from "@breakwater/wire";

// Every other path under /api/v1 goes through the SDK API's own router, so a single-port
// deployment answers exactly as the lean SDK server does: the lease endpoints (spec §5), and the
// JSON 404 `{"detail":"Not Found"}` for unknown paths — never the dashboard's HTML page.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
const dispatch = mountWire("dispatch");
export const GET = dispatch;
export const POST = dispatch;
export const PUT = dispatch;
export const PATCH = dispatch;
export const DELETE = dispatch;
export const HEAD = dispatch;
export const OPTIONS = dispatch;
