"use client";

import { useQuery } from "@tanstack/react-query";
import { Fragment, type ReactNode } from "react";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Badge } from "@/components/ui/badge";
import { BookIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/cn";
import {
  type Body,
  constraintsOf,
  fieldsOf,
  groupOperations,
  type JsonSchema,
  OPENAPI_URL,
  type OpenApiDocument,
  type Operation,
  operationCount,
  type ParameterObject,
  problemTypes,
  refName,
  typeLabel,
} from "./openapi-model";

async function fetchDocument(): Promise<OpenApiDocument> {
  const res = await fetch(OPENAPI_URL, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`GET ${OPENAPI_URL} answered ${res.status}`);
  const doc = (await res.json()) as OpenApiDocument;
  if (typeof doc?.openapi !== "string" || typeof doc.paths !== "object") {
    throw new Error(`${OPENAPI_URL} is not an OpenAPI document`);
  }
  return doc;
}

/** The query the page reads the document with. */
export const OPENAPI_QUERY_KEY = ["manage-api", "openapi.json"] as const;

/**
 * The management API's reference, rendered from the OpenAPI document the server publishes (so it
 * is always the running version's): authentication and conventions, then every operation grouped
 * by tag with its parameters, request body, responses and their schemas. Everything is drawn here
 * with the UI kit; nothing is fetched but the document itself.
 */
export function ApiReference() {
  const doc = useQuery({
    queryKey: OPENAPI_QUERY_KEY,
    queryFn: fetchDocument,
    staleTime: 300_000,
  });
  return (
    <QueryState
      query={doc}
      loading={<LoadingState rows={6} label="Loading the API reference…" />}
      errorTitle="Could not load the API reference"
      isEmpty={(d) => operationCount(d) === 0}
      empty={
        <EmptyState
          icon={<BookIcon size={18} />}
          title="No endpoints in this document"
          description={`${OPENAPI_URL} lists no operations. Regenerate it with npm run -s -w @breakwater/manage openapi.`}
        />
      }
    >
      {(d) => <Reference doc={d} />}
    </QueryState>
  );
}

function Reference({ doc }: { doc: OpenApiDocument }) {
  const groups = groupOperations(doc);
  return (
    <div className="space-y-8" data-testid="api-reference">
      <nav aria-label="Endpoint groups" className="flex flex-wrap gap-x-4 gap-y-1.5 text-[13px]">
        <a href="#conventions" className="text-zinc-600 hover:text-zinc-900">
          Conventions
        </a>
        {groups.map((g) => (
          <a key={g.tag} href={`#${g.anchor}`} className="text-zinc-600 hover:text-zinc-900">
            {g.tag} <span className="text-zinc-400">{g.operations.length}</span>
          </a>
        ))}
      </nav>
      <Conventions doc={doc} />
      {groups.map((g) => (
        <section key={g.tag} id={g.anchor} aria-labelledby={`${g.anchor}-title`} className="scroll-mt-20">
          <Card>
            <CardHeader
              title={<span id={`${g.anchor}-title`}>{g.tag}</span>}
              description={
                g.description ??
                `${g.operations.length} ${g.operations.length === 1 ? "endpoint" : "endpoints"}`
              }
            />
            <Accordion type="multiple">
              {g.operations.map((op) => (
                <OperationItem key={op.id} doc={doc} op={op} />
              ))}
            </Accordion>
          </Card>
        </section>
      ))}
    </div>
  );
}

const METHOD_TONE = { GET: "green", POST: "brand", PUT: "amber", PATCH: "amber", DELETE: "red" } as const;

function MethodBadge({ method }: { method: string }) {
  return (
    <Badge
      tone={METHOD_TONE[method as keyof typeof METHOD_TONE] ?? "neutral"}
      className="w-[52px] shrink-0 justify-center font-mono text-[10.5px]"
    >
      {method}
    </Badge>
  );
}

/** A path with its {parameters} picked out; on a phone a long path wraps after a slash, not inside a name. */
function PathText({ path }: { path: string }) {
  return (
    <code className="font-mono text-[12.5px] break-words text-zinc-900">
      {path.split(/(?<=\/)/).map((segment, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one fixed string
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {segment.split(/(\{[^}]+\})/).map((part, j) =>
            part.startsWith("{") ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
              <span key={j} className="text-brand-700">
                {part}
              </span>
            ) : (
              part
            ),
          )}
        </Fragment>
      ))}
    </code>
  );
}

function OperationItem({ doc, op }: { doc: OpenApiDocument; op: Operation }) {
  const ok = op.responses.filter((r) => r.status.startsWith("2"));
  const errors = op.responses.filter((r) => !r.status.startsWith("2"));
  return (
    <AccordionItem value={op.id} data-testid={`operation-${op.id}`}>
      <AccordionTrigger>
        <span className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
          <span className="flex min-w-0 items-center gap-2.5">
            <MethodBadge method={op.method} />
            <PathText path={op.path} />
          </span>
          <span className="text-[12.5px] text-zinc-500 sm:ml-auto sm:text-right">{op.summary}</span>
        </span>
      </AccordionTrigger>
      <AccordionContent className="space-y-5">
        {op.description ? <p className="max-w-3xl text-[13px] text-zinc-600">{op.description}</p> : null}
        <p className="text-[12px] text-zinc-500">
          <span className="font-mono">{op.id}</span>
          {op.security.length ? " · Authorization: Bearer sk_mgmt_…" : " · no key needed"}
        </p>
        {op.parameters.length ? (
          <Part title="Parameters">
            <FieldList>
              {op.parameters.map((p) => (
                <ParameterRow key={`${p.in}-${p.name}`} p={p} />
              ))}
            </FieldList>
          </Part>
        ) : null}
        {op.requestBody ? (
          <Part title="Request body" aside={op.requestBody.contentType}>
            <BodyView doc={doc} body={op.requestBody} />
          </Part>
        ) : null}
        {ok.map((r) => (
          <Part
            key={r.status}
            title={`Response ${r.status}`}
            aside={r.body?.contentType ?? (r.status === "204" ? "no body" : undefined)}
          >
            {r.headers.length ? (
              <p className="mb-2 text-[12px] text-zinc-500">
                Headers: <span className="font-mono">{r.headers.map((h) => h.name).join(", ")}</span>
              </p>
            ) : null}
            {r.body ? <BodyView doc={doc} body={r.body} /> : null}
          </Part>
        ))}
        {errors.length ? (
          <Part title="Errors" aside="application/problem+json">
            <ul className="space-y-1 text-[12.5px]">
              {errors.map((r) => (
                <li key={r.status} className="flex gap-2">
                  <span className="w-8 shrink-0 font-mono font-medium text-zinc-700">{r.status}</span>
                  <span className="min-w-0 text-zinc-600">{r.description}</span>
                </li>
              ))}
            </ul>
          </Part>
        ) : null}
      </AccordionContent>
    </AccordionItem>
  );
}

function Part({ title, aside, children }: { title: string; aside?: string; children: ReactNode }) {
  return (
    <div>
      <h4 className="mb-2 flex flex-wrap items-baseline gap-x-2 text-[12px] font-semibold tracking-wide text-zinc-700 uppercase">
        {title}
        {aside ? (
          <span className="font-mono text-[11px] font-normal tracking-normal normal-case text-zinc-400">
            {aside}
          </span>
        ) : null}
      </h4>
      {children}
    </div>
  );
}

function FieldList({ children, nested = false }: { children: ReactNode; nested?: boolean }) {
  return (
    <ul
      className={cn(
        "divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white",
        nested && "mt-2 bg-zinc-50/60",
      )}
    >
      {children}
    </ul>
  );
}

function FieldHead({
  name,
  schema,
  required,
  where,
}: {
  name: string;
  schema: JsonSchema | undefined;
  required: boolean;
  where?: string;
}) {
  return (
    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
      <code className="font-mono text-[12.5px] font-medium text-zinc-900">{name}</code>
      {where ? <span className="text-[11px] text-zinc-400">in {where}</span> : null}
      <span className="font-mono text-[12px] break-all text-zinc-500">{typeLabel(schema)}</span>
      {required ? <span className="text-[11px] font-medium text-amber-700">required</span> : null}
      {constraintsOf(schema).map((c) => (
        <span key={c} className="text-[11px] break-all text-zinc-400">
          {c}
        </span>
      ))}
    </div>
  );
}

function ParameterRow({ p }: { p: ParameterObject }) {
  const description = p.description ?? p.schema?.description;
  return (
    <li className="px-3 py-2">
      <FieldHead name={p.name} schema={p.schema} required={p.required === true} where={p.in} />
      {description ? <p className="mt-0.5 text-[12.5px] text-zinc-600">{description}</p> : null}
    </li>
  );
}

function BodyView({ doc, body }: { doc: OpenApiDocument; body: Body }) {
  const fields = fieldsOf(doc, body.schema);
  if (!fields) {
    return <p className="font-mono text-[12.5px] text-zinc-600">{typeLabel(body.schema)}</p>;
  }
  return (
    <>
      {body.schema.$ref || body.schema.type === "array" ? (
        <p className="mb-2 font-mono text-[12px] text-zinc-500">{typeLabel(body.schema)}</p>
      ) : null}
      <Fields doc={doc} schema={fields.schema} seen={fields.ref ? [fields.ref] : []} depth={0} />
    </>
  );
}

/** Nesting stops here, and at a schema already open above (a recursive one). */
const MAX_DEPTH = 3;

function Fields({
  doc,
  schema,
  seen,
  depth,
}: {
  doc: OpenApiDocument;
  schema: JsonSchema;
  seen: string[];
  depth: number;
}) {
  return (
    <FieldList nested={depth > 0}>
      {Object.entries(schema.properties ?? {}).map(([name, field]) => {
        const inner = depth < MAX_DEPTH ? fieldsOf(doc, field) : null;
        const open = inner && !(inner.ref && seen.includes(inner.ref));
        return (
          <li key={name} className="px-3 py-2">
            <FieldHead name={name} schema={field} required={schema.required?.includes(name) ?? false} />
            {field.description ? (
              <p className="mt-0.5 text-[12.5px] text-zinc-600">{field.description}</p>
            ) : null}
            {open ? (
              <Fields
                doc={doc}
                schema={inner.schema}
                seen={inner.ref ? [...seen, inner.ref] : seen}
                depth={depth + 1}
              />
            ) : inner?.ref ? (
              <p className="mt-0.5 text-[12px] text-zinc-500">See {refName(inner.ref)} above.</p>
            ) : null}
          </li>
        );
      })}
    </FieldList>
  );
}

function Conventions({ doc }: { doc: OpenApiDocument }) {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {});
  const params = doc.components?.parameters ?? {};
  const headers = Object.entries(doc.components?.headers ?? {});
  const problems = problemTypes(doc);
  return (
    <section id="conventions" aria-labelledby="conventions-title" className="scroll-mt-20">
      <Card>
        <CardHeader
          title={<span id="conventions-title">{doc.info.title}</span>}
          description={`Version ${doc.info.version} · OpenAPI ${doc.openapi}`}
        />
        <div className="px-5 py-4">
          {doc.info.description ? (
            <p className="mb-4 max-w-3xl text-[13px] text-zinc-600">{doc.info.description}</p>
          ) : null}
          <Tabs defaultValue="auth">
            <TabsList aria-label="Conventions">
              <TabsTrigger value="auth">Authentication</TabsTrigger>
              <TabsTrigger value="errors">Errors</TabsTrigger>
              <TabsTrigger value="pages">Pagination</TabsTrigger>
              <TabsTrigger value="writes">Retries &amp; concurrency</TabsTrigger>
              <TabsTrigger value="limits">Rate limits</TabsTrigger>
            </TabsList>
            <TabsContent value="auth" className="space-y-2 text-[13px] text-zinc-600">
              <p>
                Every endpoint is under <code className="font-mono text-zinc-900">/api/manage/v1</code> on
                this dashboard&apos;s address. Send a management key as a bearer token:
              </p>
              <pre className="overflow-x-auto rounded-md bg-zinc-950 px-3 py-2 font-mono text-[12px] text-zinc-100">
                Authorization: Bearer sk_mgmt_…
              </pre>
              {schemes.map(([name, s]) => (
                <p key={name}>{s.description}</p>
              ))}
              <p>
                Read keys read; write keys also change projects, budgets and SDK keys; operator keys reach the
                Operator endpoints only. SDK keys (sk_proj_…) are refused with 401.
              </p>
            </TabsContent>
            <TabsContent value="errors" className="space-y-3 text-[13px] text-zinc-600">
              <p>
                Errors are RFC 9457 problem details (
                <code className="font-mono">application/problem+json</code>
                ): switch on <code className="font-mono">type</code>; <code className="font-mono">title</code>{" "}
                and <code className="font-mono">detail</code> are for people, and a 422 lists the refused
                fields in <code className="font-mono">errors</code>.
              </p>
              <Card className="shadow-none">
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Status</TableHead>
                      <TableHead>Type</TableHead>
                      <TableHead>Title</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {problems.map((p) => (
                      <TableRow key={p.type}>
                        <TableCell className="font-mono">{p.status}</TableCell>
                        <TableCell className="font-mono text-[12px] whitespace-nowrap">{p.type}</TableCell>
                        <TableCell className="whitespace-nowrap">{p.title}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Card>
            </TabsContent>
            <TabsContent value="pages" className="space-y-2 text-[13px] text-zinc-600">
              <p>
                Lists answer <code className="font-mono">{"{ data, has_more }"}</code>, oldest first. Ask for
                up to <code className="font-mono">limit</code> items (1–100, default 20); while{" "}
                <code className="font-mono">has_more</code> is true, ask again with{" "}
                <code className="font-mono">starting_after</code> set to the last item&apos;s id.
              </p>
            </TabsContent>
            <TabsContent value="writes" className="space-y-2 text-[13px] text-zinc-600">
              {Object.entries(params).map(([key, p]) => (
                <p key={key}>
                  <code className="font-mono text-zinc-900">{p.name}</code> — {p.description}
                </p>
              ))}
            </TabsContent>
            <TabsContent value="limits" className="space-y-2 text-[13px] text-zinc-600">
              <p>
                Each key has its own budget of requests per minute; past it, 429 with Retry-After. Every
                answer says where the key stands:
              </p>
              <ul className="space-y-1">
                {headers.map(([name, h]) => (
                  <li key={name}>
                    <code className="font-mono text-zinc-900">{name}</code> — {h.description}
                  </li>
                ))}
              </ul>
            </TabsContent>
          </Tabs>
        </div>
      </Card>
    </section>
  );
}
