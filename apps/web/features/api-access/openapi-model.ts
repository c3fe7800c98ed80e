/**
 * What the API reference page reads from an OpenAPI 3.1 document (the management API's, as
 * GET /api/manage/v1/openapi.json serves it): operations grouped by tag, parameters with their
 * references resolved, and JSON Schemas summarised as type labels, constraints and nested fields.
 * Pure functions, so the page only lays them out.
 */

/** Where the dashboard's port serves the management API's contract (no key needed). */
export const OPENAPI_URL = "/api/manage/v1/openapi.json";

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
}

interface Ref {
  $ref: string;
}

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface HeaderObject {
  description?: string;
  schema?: JsonSchema;
}

interface MediaObject {
  schema?: JsonSchema;
}

interface ResponseObject {
  description?: string;
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, MediaObject>;
}

interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: (ParameterObject | Ref)[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, JsonSchema & Record<string, unknown>>;
    parameters?: Record<string, ParameterObject>;
    headers?: Record<string, HeaderObject>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
}

export interface Body {
  contentType: string;
  schema: JsonSchema;
}

export interface ResponseInfo {
  status: string;
  description: string;
  body: Body | null;
  headers: { name: string; description: string }[];
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  parameters: ParameterObject[];
  requestBody: Body | null;
  responses: ResponseInfo[];
  /** Names of the security schemes that accept it (empty: no key needed). */
  security: string[];
}

export interface TagGroup {
  tag: string;
  /** The tag's id for an anchor, e.g. `tag-api-keys`. */
  anchor: string;
  description: string | null;
  operations: Operation[];
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The last segment of a local reference, e.g. `Project` of `#/components/schemas/Project`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

function isRef(v: unknown): v is Ref {
  return typeof v === "object" && v !== null && typeof (v as Ref).$ref === "string";
}

/** The object a local `#/…` reference points at, or undefined when it points nowhere. */
export function lookup(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function deref<T>(doc: OpenApiDocument, v: T | Ref): T | undefined {
  return isRef(v) ? (lookup(doc, v.$ref) as T | undefined) : v;
}

/** The schema a `$ref` names (itself when it is no reference). */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  return schema.$ref ? ((lookup(doc, schema.$ref) as JsonSchema | undefined) ?? {}) : schema;
}

const anchorOf = (tag: string) =>
  `tag-${tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;

function bodyOf(content: Record<string, MediaObject> | undefined): Body | null {
  const [contentType, media] = Object.entries(content ?? {})[0] ?? [];
  return contentType && media?.schema ? { contentType, schema: media.schema } : null;
}

/** Every operation of the document, grouped by its first tag, tags in the document's order. */
export function groupOperations(doc: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  const groupOf = (tag: string) => {
    let g = groups.get(tag);
    if (!g) {
      const declared = doc.tags?.find((t) => t.name === tag);
      g = { tag, anchor: anchorOf(tag), description: declared?.description ?? null, operations: [] };
      groups.set(tag, g);
    }
    return g;
  };
  for (const t of doc.tags ?? []) groupOf(t.name);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = (op.parameters ?? [])
        .map((p) => deref<ParameterObject>(doc, p))
        .filter((p): p is ParameterObject => p !== undefined);
      const responses = Object.entries(op.responses ?? {}).map(([status, r]) => ({
        status,
        description: r.description ?? "",
        body: bodyOf(r.content),
        headers: Object.entries(r.headers ?? {}).map(([name, h]) => ({
          name,
          description: deref<HeaderObject>(doc, h)?.description ?? "",
        })),
      }));
      groupOf(op.tags?.[0] ?? "Other").operations.push({
        id: op.operationId ?? `${method}-${path}`,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? "",
        description: op.description ?? null,
        parameters,
        requestBody: bodyOf(op.requestBody?.content),
        responses,
        security: (op.security ?? []).flatMap((s) => Object.keys(s)),
      });
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0);
}

/** A short type: `string`, `integer`, `Project`, `Project[]`, `number | null`, `alert_only | hard_deny`, `map of string`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.enum) return schema.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map(typeLabel))].join(" | ");
  if (schema.allOf?.length === 1) return typeLabel(schema.allOf[0]);
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.type === "array") {
    const item = typeLabel(schema.items);
    return item.includes(" ") ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
    return `map of ${typeLabel(schema.additionalProperties)}`;
  }
  return schema.type ?? "any";
}

/** Patterns longer than this are left to the document: no one reads them on a page. */
const MAX_PATTERN = 60;

/** A schema's limits in words: `≥ 1`, `≤ 100`, `> 0`, `1–255 characters`, `at most 10`, `default 20`… */
export function constraintsOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const s =
    (schema.anyOf ?? schema.oneOf)?.find((m) => m.type !== "null" && !m.$ref) ??
    (schema.type === "array" && schema.items && !schema.items.$ref ? schema.items : schema);
  const out: string[] = [];
  const n = (v: number) => v.toLocaleString("en-US");
  if (s.minimum !== undefined) out.push(`≥ ${n(s.minimum)}`);
  if (s.exclusiveMinimum !== undefined) out.push(`> ${n(s.exclusiveMinimum)}`);
  if (s.maximum !== undefined) out.push(`≤ ${n(s.maximum)}`);
  if (s.exclusiveMaximum !== undefined) out.push(`< ${n(s.exclusiveMaximum)}`);
  if (s.minLength !== undefined && s.maxLength !== undefined)
    out.push(`${s.minLength}–${s.maxLength} characters`);
  else if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} characters`);
  else if (s.minLength !== undefined) out.push(`at least ${s.minLength} characters`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} items`);
  if (s.format) out.push(s.format);
  // A format says it in a word (date-time's generated pattern is 300 characters of regex).
  else if (s.pattern && s.pattern.length <= MAX_PATTERN) out.push(`matches ${s.pattern}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

/**
 * The object whose fields to show beneath a field or a body: the schema itself, what its `$ref`
 * names, its array's items, or the one non-null member of a nullable union. Null when there are no
 * fields to show (a scalar, a map).
 */
export function fieldsOf(
  doc: OpenApiDocument,
  schema: JsonSchema | undefined,
): { schema: JsonSchema; ref: string | null } | null {
  if (!schema) return null;
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const members = union.filter((m) => m.type !== "null");
    return members.length === 1 ? fieldsOf(doc, members[0]) : null;
  }
  if (schema.type === "array") return fieldsOf(doc, schema.items);
  if (schema.$ref) {
    const inner = fieldsOf(doc, resolveSchema(doc, schema));
    return inner ? { schema: inner.schema, ref: schema.$ref } : null;
  }
  return schema.properties && Object.keys(schema.properties).length > 0 ? { schema, ref: null } : null;
}

export interface ProblemType {
  type: string;
  status: number;
  title: string;
}

/** The problem types the Problem schema lists (`x-problem-types`), by status. */
export function problemTypes(doc: OpenApiDocument): ProblemType[] {
  const listed = doc.components?.schemas?.Problem?.["x-problem-types"] as
    | Record<string, { status: number; title: string }>
    | undefined;
  return Object.entries(listed ?? {})
    .map(([type, p]) => ({ type, status: p.status, title: p.title }))
    .sort((a, b) => a.status - b.status);
}

/** How many operations the document has. */
export function operationCount(doc: OpenApiDocument): number {
  return Object.values(doc.paths ?? {}).reduce(
    (n, item) => n + METHODS.filter((m) => item[m] !== undefined).length,
    0,
  );
}
