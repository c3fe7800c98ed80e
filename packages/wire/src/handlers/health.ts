import { json, rawJson } from "../errors";
import { openApiDocument } from "../openapi";
import type { WireContext } from "./context";
import type { Handler } from "./gate";

/** GET /health: the process answers. */
export const health: Handler = async () => rawJson(200, '{"status":"ok"}');

function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
}

/** Whether Postgres and Redis each answer within a second. */
export async function readiness(ctx: WireContext): Promise<{ postgres: boolean; redis: boolean }> {
  const ok = () => true;
  const failed = () => false;
  const [postgres, redis] = await Promise.all([
    within(ctx.pool.query("SELECT 1").then(ok, failed), 1000),
    within(ctx.redis.ping().then(ok, failed), 1000),
  ]);
  return { postgres: postgres === true, redis: redis === true };
}

/** GET /health/ready: 503 naming the backend that does not answer. */
export const ready: Handler = async (ctx) => {
  const r = await readiness(ctx);
  const ok = r.postgres && r.redis;
  return json(ok ? 200 : 503, {
    status: ok ? "ok" : "unavailable",
    postgres: r.postgres ? "ok" : "unavailable",
    redis: r.redis ? "ok" : "unavailable",
  });
};

let openapiText: string | null = null;
/** GET /api/v1/openapi.json: the SDK API's OpenAPI 3.1 document. */
export const openapi: Handler = async () => {
  openapiText ??= JSON.stringify(openApiDocument());
  return rawJson(200, openapiText);
};
