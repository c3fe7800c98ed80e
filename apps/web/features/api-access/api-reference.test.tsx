import { readFileSync } from "node:fs";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApiReference, OPENAPI_QUERY_KEY } from "./api-reference";
import { type OpenApiDocument, operationCount } from "./openapi-model";

const doc = JSON.parse(
  readFileSync(new URL("../../../../packages/manage/openapi.json", import.meta.url), "utf8"),
) as OpenApiDocument;

/** The page's markup with the document already loaded (or not, when `loaded` is undefined). */
function html(loaded?: OpenApiDocument) {
  const client = new QueryClient();
  if (loaded) client.setQueryData(OPENAPI_QUERY_KEY, loaded);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ApiReference />
    </QueryClientProvider>,
  );
}

describe("ApiReference", () => {
  it("shows loading placeholders until the document arrives", () => {
    const markup = html();
    expect(markup).toContain('role="status"');
    expect(markup).toContain("Loading the API reference…");
  });

  it("lists every operation of the document, grouped, with the conventions first", () => {
    const markup = html(doc);
    expect(markup.match(/data-testid="operation-/g)?.length).toBe(operationCount(doc));
    expect(markup.indexOf('id="conventions"')).toBeLessThan(markup.indexOf('id="tag-projects"'));
    expect(markup).toContain('data-testid="operation-createProject"');
    expect(markup).toContain("Authorization: Bearer sk_mgmt_…");
  });

  it("says so when the document has no operations", () => {
    expect(html({ ...doc, paths: {} })).toContain("No endpoints in this document");
  });
});
