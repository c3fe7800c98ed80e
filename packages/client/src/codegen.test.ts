import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateTypes, readDocument, TYPES_PATH } from "./codegen";

/** The first line (1-based) where two texts differ, or null when they are the same. */
function firstDifference(a: string, b: string): number | null {
  if (a === b) return null;
  const x = a.split("\n");
  const y = b.split("\n");
  const at = x.findIndex((line, i) => line !== y[i]);
  return (at < 0 ? x.length : at) + 1;
}

describe("the generated client types", () => {
  it("src/generated/openapi.ts is what packages/manage/openapi.json generates", async () => {
    const committed = readFileSync(TYPES_PATH, "utf8");
    const line = firstDifference(committed, await generateTypes());
    // After the management API's document changes: npm run -s -w @breakwater/client generate
    expect(
      line,
      `src/generated/openapi.ts is stale from line ${line}: run npm run -s -w @breakwater/client generate`,
    ).toBeNull();
  });

  it("the drift check notices an operation added to the document", async () => {
    const doc = readDocument() as { paths: Record<string, unknown> };
    const ops = doc.paths["/api/manage/v1/projects"] as Record<string, unknown>;
    const added = {
      ...doc,
      paths: {
        ...doc.paths,
        "/api/manage/v1/projects/{projectId}/archive": {
          post: { ...(ops.post as object), operationId: "x" },
        },
      },
    };
    const committed = readFileSync(TYPES_PATH, "utf8");
    expect(firstDifference(committed, await generateTypes(added))).not.toBeNull();
  });
});
