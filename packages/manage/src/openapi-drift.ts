import { isDeepStrictEqual } from "node:util";
import { openApiDocument } from "./openapi";
import { MANAGE_ROUTES } from "./routes";
import type { Route } from "./routes/define";

type Json = Record<string, unknown>;

/**
 * Where a published OpenAPI document and the route table disagree: an operation one has and the
 * other lacks, or an operation, component or header whose generated form differs from the
 * published one. Empty when they agree. Clients are generated from the published document
 * (packages/manage/openapi.json), so a route changed without regenerating it is drift.
 */
export function documentDrift(published: Json, routes: readonly Route[] = MANAGE_ROUTES): string[] {
  const generated = openApiDocument(routes);
  const out: string[] = [];
  const ops = (doc: Json) => {
    const m = new Map<string, unknown>();
    for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) m.set(`${method.toUpperCase()} ${path}`, op);
    }
    return m;
  };
  const have = ops(published);
  const want = ops(generated);
  for (const [name, op] of want) {
    if (!have.has(name)) out.push(`${name}: in the routes, missing from the document`);
    else if (!isDeepStrictEqual(have.get(name), op))
      out.push(`${name}: the document differs from the route's schemas`);
  }
  for (const name of have.keys()) if (!want.has(name)) out.push(`${name}: in the document, no such route`);
  const comps = (doc: Json) => (doc.components ?? {}) as Record<string, Record<string, unknown>>;
  for (const [kind, entries] of Object.entries(comps(generated))) {
    for (const [name, value] of Object.entries(entries)) {
      if (!isDeepStrictEqual(comps(published)[kind]?.[name], value))
        out.push(`components.${kind}.${name} differs`);
    }
  }
  if (
    !isDeepStrictEqual({ ...published, paths: 0, components: 0 }, { ...generated, paths: 0, components: 0 })
  ) {
    out.push("the document's info, tags or version differ");
  }
  return out;
}
