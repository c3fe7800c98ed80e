import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ColumnDef } from "./data-table";
import { infiniteRows, type KeysetQuery, KeysetTable } from "./keyset-table";

type Row = { id: string; name: string };

const columns: ColumnDef<Row>[] = [
  { header: "Name", cell: ({ row }) => row.original.name, meta: { cellClassName: "font-mono" } },
];

const page = (...names: string[]) => ({ items: names.map((name) => ({ id: name, name })) });

/** An infinite query result as TanStack shapes it, for the fields infiniteRows reads. */
function infinite(pages: { items: Row[] }[], paging: { hasNextPage: boolean; isFetchingNextPage: boolean }) {
  return {
    data: { pages },
    error: null,
    isPending: false,
    refetch: () => undefined,
    fetchNextPage: () => undefined,
    ...paging,
  };
}

function html(query: KeysetQuery<Row>, inset = false) {
  return renderToStaticMarkup(
    <KeysetTable
      query={query}
      columns={columns}
      label="People"
      getRowId={(r) => r.id}
      rowAttributes={(r) => ({ "data-testid": `person-${r.id}` })}
      rowClassName={(r) => (r.id === "b" ? "text-zinc-400" : undefined)}
      toolbar={<input aria-label="Search" />}
      empty={<p>Nobody yet</p>}
      loadMoreLabel="Show more people"
      inset={inset}
    />,
  );
}

describe("infiniteRows", () => {
  it("flattens the pages in order and keeps the paging fields", () => {
    const query = infiniteRows(
      infinite([page("a", "b"), page("c")], { hasNextPage: true, isFetchingNextPage: false }),
      (p) => p.items,
    );
    expect(query.data?.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(query.hasNextPage).toBe(true);
  });

  it("keeps a live list's rows when a background refetch fails, not when Load more or the first load does", () => {
    const failed = (isFetchNextPageError: boolean, pages: { items: Row[] }[] | undefined) => ({
      ...infinite(pages ?? [], { hasNextPage: true, isFetchingNextPage: false }),
      data: pages ? { pages } : undefined,
      error: { message: "Network down" },
      isFetchNextPageError,
    });
    const keep = { keepRowsOnRefetchError: true };
    const refetch = infiniteRows(failed(false, [page("a")]), (p) => p.items, keep);
    expect(refetch.error).toBeNull();
    expect(html(refetch)).toContain('data-testid="person-a"');
    const more = infiniteRows(failed(true, [page("a")]), (p) => p.items, keep);
    expect(html(more)).toContain("Network down");
    expect(infiniteRows(failed(false, undefined), (p) => p.items, keep).error).toEqual({
      message: "Network down",
    });
    // Without the option every failure shows, as in a list that is not kept live.
    expect(infiniteRows(failed(false, [page("a")]), (p) => p.items).error).toEqual({
      message: "Network down",
    });
  });
});

describe("KeysetTable", () => {
  it("names the table, tags its rows, styles cells per column and offers the next page", () => {
    const out = html(
      infiniteRows(
        infinite([page("a", "b")], { hasNextPage: true, isFetchingNextPage: false }),
        (p) => p.items,
      ),
    );
    expect(out).toContain('<table class="w-full caption-bottom text-left text-[13px]" aria-label="People">');
    expect(out).toContain('data-testid="person-a"');
    // A row's own classes (a greyed-out one), on that row only.
    expect(out).toMatch(/<tr class="[^"]*text-zinc-400"[^>]*data-testid="person-b"/);
    expect(out).not.toMatch(/<tr class="[^"]*text-zinc-400"[^>]*data-testid="person-a"/);
    expect(out).toContain('<td class="px-4 py-2.5 align-middle first:pl-5 last:pr-5 font-mono">b</td>');
    expect(out).toMatch(/<button[^>]*>Show more people<\/button>/);
    expect(out).not.toContain("End of list");
    // Not sortable: the header is text, not a button, and carries no aria-sort.
    expect(out).not.toContain("aria-sort");
    expect(out).toMatch(/<th[^>]*>Name<\/th>/);
  });

  it("says Loading… on a disabled button while the next page is on its way", () => {
    const out = html(
      infiniteRows(infinite([page("a")], { hasNextPage: true, isFetchingNextPage: true }), (p) => p.items),
    );
    expect(out).toMatch(/<button[^>]*disabled=""[^>]*>Loading…<\/button>/);
  });

  it("marks the end of the list once the server has no further page", () => {
    const out = html(
      infiniteRows(infinite([page("a")], { hasNextPage: false, isFetchingNextPage: false }), (p) => p.items),
    );
    expect(out).toContain("End of list");
    expect(out).not.toContain("<button");
  });

  it("gives a plain query's list no footer", () => {
    const out = html({
      data: [{ id: "a", name: "A" }],
      error: null,
      isPending: false,
      refetch: () => undefined,
    });
    expect(out).toContain('data-testid="person-a"');
    expect(out).not.toContain("End of list");
    expect(out).not.toContain("<button");
  });

  it("shows the empty state instead of a table, with the toolbar still there", () => {
    const out = html({ data: [], error: null, isPending: false });
    expect(out).toContain("Nobody yet");
    expect(out).toContain('aria-label="Search"');
    expect(out).not.toContain("<table");
  });

  it("shows a failure with Try again, and loading skeletons while pending", () => {
    const failed = html({
      data: undefined,
      error: { message: "boom" },
      isPending: false,
      refetch: () => undefined,
    });
    expect(failed).toContain('role="alert"');
    expect(failed).toContain("boom");
    expect(failed).toContain("Try again");
    const pending = html({ data: undefined, error: null, isPending: true });
    expect(pending).toContain('role="status"');
    expect(pending).not.toContain("<table");
  });

  it("inset: the toolbar is a band across the card the view draws, and no Card of its own", () => {
    const out = html({ data: [{ id: "a", name: "A" }], error: null, isPending: false }, true);
    expect(
      out.startsWith(
        '<div class="space-y-2 border-b border-zinc-100 px-4 py-3"><input aria-label="Search"/>',
      ),
    ).toBe(true);
    expect(out).not.toContain("rounded-lg border border-zinc-200");
  });
});
