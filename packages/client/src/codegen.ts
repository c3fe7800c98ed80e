import { readFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";

/**
 * The published contract the client is generated from: packages/manage/openapi.json, which
 * `npm run -s -w @breakwater/manage openapi` writes from the management API's route table.
 */
export const DOCUMENT_PATH = new URL("../../manage/openapi.json", import.meta.url);

/** The generated types, committed so that builds and editors never run the generator. */
export const TYPES_PATH = new URL("./generated/openapi.ts", import.meta.url);

const HEADER = `// Generated from packages/manage/openapi.json by openapi-typescript. Do not edit: after the
// management API's routes change, run \`npm run -s -w @breakwater/manage openapi\`, then
// \`npm run -s -w @breakwater/client generate\`. src/codegen.test.ts fails while this file is stale.
`;

/** The published OpenAPI document, parsed. */
export function readDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(DOCUMENT_PATH, "utf8")) as Record<string, unknown>;
}

/**
 * The TypeScript types of an OpenAPI document (`paths`, `components`, `operations`) as the text of
 * src/generated/openapi.ts: the same document always gives the same text, so the committed file can
 * be compared with a fresh generation.
 */
export async function generateTypes(document: Record<string, unknown> = readDocument()): Promise<string> {
  // openapi-typescript resolves $refs in place; a copy keeps the caller's document as it was.
  const ast = await openapiTS(structuredClone(document) as never);
  return `${HEADER}\n${astToString(ast)}`;
}
