import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "@breakwater/config";
import { fromFetch, fromNode, toFetch, toNode } from "./adapters";
import { problemResponse } from "./http";
import { isManagePath } from "./pipeline";
import { PROBLEM_TYPES, problemTypeUri } from "./problem";
import { createManageRuntime, type ManageRuntime } from "./runtime";

const globalForManage = globalThis as unknown as { __breakwaterManage?: ManageRuntime };

/** The process's management API, built on first request (never at import, so `next build` needs no database). */
function sharedRuntime(): ManageRuntime {
  globalForManage.__breakwaterManage ??= createManageRuntime(getConfig());
  return globalForManage.__breakwaterManage;
}

const unavailable = () =>
  problemResponse({
    type: problemTypeUri("unavailable"),
    title: PROBLEM_TYPES.unavailable.title,
    status: 503,
  });

export { isManagePath };

/**
 * The management API on a Node server (apps/web/server.mjs answers /api/manage/v1 with this, in
 * its own process, beside the SDK API): every request answered, a failure to boot as a 503.
 */
export function serveManage(msg: IncomingMessage, res: ServerResponse): void {
  let runtime: ManageRuntime;
  try {
    runtime = sharedRuntime();
  } catch (err) {
    process.stderr.write(`management API unavailable: ${err instanceof Error ? err.message : String(err)}\n`);
    toNode(res, unavailable());
    return;
  }
  runtime.handle(fromNode(msg)).then(
    (r) => toNode(res, r),
    () => toNode(res, unavailable()),
  );
}

/** The management API as a Next.js route handler (`next dev`, where server.mjs is not in front). */
export async function manageRouteHandler(req: Request): Promise<Response> {
  try {
    return toFetch(await sharedRuntime().handle(fromFetch(req)));
  } catch {
    return toFetch(unavailable());
  }
}

/** For a stopping dashboard: writes pending last-used times and closes the connections. */
export async function closeManage(): Promise<void> {
  const rt = globalForManage.__breakwaterManage;
  globalForManage.__breakwaterManage = undefined;
  await rt?.close().catch(() => undefined);
}
