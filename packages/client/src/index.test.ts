import { describe, expect, it } from "vitest";
import {
  BreakwaterApiError,
  createBreakwaterClient,
  dashboardBaseUrl,
  listAll,
  type Project,
  unwrap,
} from "./index";

const project = (id: string): Project => ({
  id,
  organizationId: "org_1",
  name: id,
  mode: "alert_only",
  limits: { daily: null, weekly: null, monthly: 100 },
  createdAt: "2026-12-07T00:00:00.000Z",
});

/** A fetch that records the requests it is given and answers each with `answer(request)`. */
function fakeFetch(answer: (req: Request) => Response) {
  const seen: Request[] = [];
  const fetch = async (req: Request) => {
    seen.push(req);
    return answer(req);
  };
  return { seen, fetch };
}

const json = (status: number, body: unknown, type = "application/json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });

describe("createBreakwaterClient", () => {
  it("sends the management key as a bearer token to the dashboard's /api/manage/v1", async () => {
    const { seen, fetch } = fakeFetch(() => json(200, { data: [project("proj_a")], has_more: false }));
    const bw = createBreakwaterClient({ baseUrl: "http://dash.test:3000/", token: "sk_mgmt_x", fetch });
    const page = unwrap(await bw.GET("/api/manage/v1/projects", { params: { query: { limit: 5 } } }));
    expect(page.data.map((p) => p.id)).toEqual(["proj_a"]);
    expect(seen[0]!.url).toBe("http://dash.test:3000/api/manage/v1/projects?limit=5");
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer sk_mgmt_x");
  });

  it("takes the dashboard's URL with or without /api/manage/v1, and refuses what is not http(s)", () => {
    expect(dashboardBaseUrl("https://bw.example.com/api/manage/v1/")).toBe("https://bw.example.com");
    expect(dashboardBaseUrl(" https://example.com/breakwater ")).toBe("https://example.com/breakwater");
    expect(() => dashboardBaseUrl("bw.example.com")).toThrow(/not a URL: "bw.example.com"/);
    expect(() => dashboardBaseUrl("ftp://bw.example.com")).toThrow(/not an http\(s\) URL/);
  });
});

describe("unwrap", () => {
  it("throws a problem+json answer as BreakwaterApiError with its type, title, detail and field errors", async () => {
    const { fetch } = fakeFetch(() =>
      json(
        422,
        {
          type: "urn:breakwater:problem:validation-failed",
          title: "The request has invalid fields",
          status: 422,
          detail: "name: Name is required",
          errors: [{ pointer: "/name", detail: "Name is required" }],
        },
        "application/problem+json",
      ),
    );
    const bw = createBreakwaterClient({ baseUrl: "http://dash.test", token: "sk_mgmt_x", fetch });
    const err = await bw
      .POST("/api/manage/v1/projects", { body: { name: "" } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BreakwaterApiError);
    expect(err).toMatchObject({
      status: 422,
      type: "urn:breakwater:problem:validation-failed",
      title: "The request has invalid fields",
      detail: "name: Name is required",
      errors: [{ pointer: "/name", detail: "Name is required" }],
      message: "The request has invalid fields: name: Name is required",
    });
  });

  it("keeps the status of an answer that is not a problem (a proxy's error page)", async () => {
    const { fetch } = fakeFetch(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    const bw = createBreakwaterClient({ baseUrl: "http://dash.test", token: "sk_mgmt_x", fetch });
    const err = await bw
      .GET("/api/manage/v1/projects")
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, type: "about:blank", title: "HTTP 502" });
  });
});

describe("listAll", () => {
  it("follows starting_after from page to page until has_more is false", async () => {
    const ids = ["proj_a", "proj_b", "proj_c", "proj_d", "proj_e"];
    const { seen, fetch } = fakeFetch((req) => {
      const q = new URL(req.url).searchParams;
      const start = q.get("starting_after") ? ids.indexOf(q.get("starting_after")!) + 1 : 0;
      const limit = Number(q.get("limit"));
      return json(200, {
        data: ids.slice(start, start + limit).map(project),
        has_more: start + limit < ids.length,
      });
    });
    const bw = createBreakwaterClient({ baseUrl: "http://dash.test", token: "sk_mgmt_x", fetch });
    const all = await listAll((starting_after) =>
      bw.GET("/api/manage/v1/projects", { params: { query: { limit: 2, starting_after } } }),
    );
    expect(all.map((p) => p.id)).toEqual(ids);
    expect(seen.map((r) => new URL(r.url).search)).toEqual([
      "?limit=2",
      "?limit=2&starting_after=proj_b",
      "?limit=2&starting_after=proj_d",
    ]);
  });
});
