import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  constraintsOf,
  fieldsOf,
  groupOperations,
  type OpenApiDocument,
  operationCount,
  problemTypes,
  typeLabel,
} from "./openapi-model";

// The published document, as GET /api/manage/v1/openapi.json serves it.
const doc = JSON.parse(
  readFileSync(new URL("../../../../packages/manage/openapi.json", import.meta.url), "utf8"),
) as OpenApiDocument;

describe("the API reference's reading of the management API's document", () => {
  it("groups every operation once under its tag, tags in the document's order", () => {
    const groups = groupOperations(doc);
    expect(groups.map((g) => g.tag)).toEqual(doc.tags!.map((t) => t.name));
    expect(groups.flatMap((g) => g.operations).length).toBe(operationCount(doc));
    const projects = groups.find((g) => g.tag === "Projects")!;
    expect(projects.anchor).toBe("tag-projects");
    const create = projects.operations.find((o) => o.id === "createProject")!;
    expect(create).toMatchObject({
      method: "POST",
      path: "/api/manage/v1/projects",
      security: ["managementKey"],
    });
    // The Idempotency-Key parameter is a reference, resolved.
    expect(create.parameters.map((p) => `${p.in} ${p.name}`)).toEqual(["header Idempotency-Key"]);
    expect(create.requestBody?.contentType).toBe("application/json");
    expect(create.responses.map((r) => r.status)).toEqual(["201", "401", "403", "404", "409", "422", "429"]);
    expect(create.responses[0]!.headers.map((h) => h.name)).toContain("RateLimit-Remaining");
  });

  it("labels types, limits and the fields beneath a body", () => {
    expect(typeLabel({ $ref: "#/components/schemas/Project" })).toBe("Project");
    expect(typeLabel({ type: "array", items: { $ref: "#/components/schemas/Project" } })).toBe("Project[]");
    expect(typeLabel({ anyOf: [{ type: "number" }, { type: "null" }] })).toBe("number | null");
    expect(typeLabel({ type: "string", enum: ["alert_only", "hard_deny"] })).toBe("alert_only | hard_deny");
    expect(typeLabel({ type: "object", additionalProperties: { type: "string" } })).toBe("map of string");
    expect(constraintsOf({ type: "integer", minimum: 1, maximum: 100, default: 20 })).toEqual([
      "≥ 1",
      "≤ 100",
      "default 20",
    ]);
    expect(constraintsOf({ anyOf: [{ type: "number", exclusiveMinimum: 0 }, { type: "null" }] })).toEqual([
      "> 0",
    ]);
    expect(constraintsOf({ type: "number", maximum: 1_000_000_000 })).toEqual(["≤ 1,000,000,000"]);
    expect(constraintsOf({ type: "string", format: "date-time", pattern: "^(?:x)$" })).toEqual(["date-time"]);
    expect(constraintsOf({ type: "string", pattern: "^sk_proj_[0-9a-f]{64}$" })).toEqual([
      "matches ^sk_proj_[0-9a-f]{64}$",
    ]);
    const list = groupOperations(doc)[0]!.operations.find((o) => o.id === "listProjects")!;
    const page = fieldsOf(doc, list.responses[0]!.body!.schema)!;
    expect(Object.keys(page.schema.properties!)).toEqual(["data", "has_more"]);
    const item = fieldsOf(doc, page.schema.properties!.data)!;
    expect(item.ref).toBe("#/components/schemas/Project");
    expect(Object.keys(item.schema.properties!)).toContain("organizationId");
    expect(fieldsOf(doc, { type: "string" })).toBeNull();
  });

  it("lists the problem types by status", () => {
    const types = problemTypes(doc);
    expect(types[0]!.status).toBe(400);
    expect(types).toContainEqual({
      type: "urn:breakwater:problem:not-found",
      status: 404,
      title: "Not found",
    });
  });
});
