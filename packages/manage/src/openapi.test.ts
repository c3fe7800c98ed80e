import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "./openapi";
import { documentDrift } from "./openapi-drift";
import { MANAGE_BASE } from "./pipeline";
import { MANAGE_ROUTES } from "./routes";
import { projectRoutes } from "./routes/projects";

const published = JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));

describe("the management API's OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const api = await SwaggerParser.validate(structuredClone(openApiDocument()) as never);
    expect((api as { openapi?: string }).openapi).toBe("3.1.0");
  });

  it("lists every route once, with its scope's security, and nothing else", () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(ops.sort()).toEqual(MANAGE_ROUTES.map((r) => `${r.method} ${MANAGE_BASE}${r.path}`).sort());
    const ids = MANAGE_ROUTES.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("the published document (packages/manage/openapi.json) matches the routes' schemas", () => {
    // After changing a route or a schema: npm run -s -w @breakwater/manage openapi
    expect(documentDrift(published)).toEqual([]);
  });

  it("the drift check catches a route whose schema changed, and routes added or removed", () => {
    const create = projectRoutes.find((r) => r.operationId === "createProject")!;
    const changed = MANAGE_ROUTES.map((r) =>
      r === create ? { ...r, body: z.object({ name: z.string() }) } : r,
    );
    expect(documentDrift(published, changed)).toEqual([
      "POST /api/manage/v1/projects: the document differs from the route's schemas",
    ]);
    const fewer = MANAGE_ROUTES.filter((r) => r.operationId !== "deleteProject");
    expect(documentDrift(published, fewer)).toEqual([
      "DELETE /api/manage/v1/projects/{projectId}: in the document, no such route",
    ]);
  });
});
