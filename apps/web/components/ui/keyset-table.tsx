"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { type ColumnDef, DataTable, type RowAttributes } from "./data-table";
import { Input, Label } from "./form";
import { Card } from "./page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "./select";
import { type QueryLike, QueryState } from "./states";

/**
 * What KeysetTable reads of its query. A plain TanStack query of rows fits as it is (one list, no
 * "Load more"); an infinite query goes through `infiniteRows`, which adds the paging.
 */
export interface KeysetQuery<TRow> extends QueryLike<TRow[]> {
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage?: () => unknown;
}

/** The part of a TanStack infinite query result `infiniteRows` reads. */
interface InfiniteQueryLike<TPage> extends QueryLike<{ pages: TPage[] }> {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** True when the last failure was "Load more", not a refetch of the pages already shown. */
  isFetchNextPageError?: boolean;
}

/**
 * An infinite query's pages as one list of rows (`rows` picks them out of a page). The fields
 * are read one by one rather than spread: TanStack re-renders for the fields a component reads,
 * and a spread reads them all.
 *
 * `keepRowsOnRefetchError`: a list kept live (refetched on pushes or polls) keeps its rows on
 * screen when such a background refetch fails, as the rest of a live page does; a failed first
 * load or "Load more" still shows the error with "Try again".
 */
export function infiniteRows<TPage, TRow>(
  query: InfiniteQueryLike<TPage>,
  rows: (page: TPage) => TRow[],
  opts: { keepRowsOnRefetchError?: boolean } = {},
): KeysetQuery<TRow> {
  const data = query.data?.pages.flatMap(rows);
  return {
    data,
    error:
      opts.keepRowsOnRefetchError && data !== undefined && !query.isFetchNextPageError ? null : query.error,
    isPending: query.isPending,
    refetch: query.refetch,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
  };
}

/**
 * A searchable, filterable list read a page at a time: the toolbar, then loading skeletons, an
 * error with "Try again", `empty`, or the rows, with "Load more" under them while the server has
 * another page and "End of list" once it has not.
 *
 * It stands on the page by default (toolbar above, the table in its own Card). With `inset` it
 * goes inside a Card the view draws under its CardHeader: the toolbar becomes a band across the
 * card, and the states and table are padded within it.
 *
 * Columns are not sortable: the rows are the server's order, and sorting the pages loaded so far
 * would pass for sorting the whole list.
 */
export function KeysetTable<TRow>({
  query,
  columns,
  label,
  getRowId,
  rowClassName,
  rowAttributes,
  toolbar,
  loading,
  empty,
  loadMoreLabel = "Load more",
  inset = false,
}: {
  query: KeysetQuery<TRow>;
  columns: ColumnDef<TRow>[];
  /** The table's accessible name. */
  label: string;
  getRowId: (row: TRow) => string;
  /** Classes of a body row (e.g. a greyed-out stale one). */
  rowClassName?: (row: TRow) => string | undefined;
  rowAttributes?: (row: TRow) => RowAttributes;
  /** Search box and filters, e.g. `SearchField`s or a fieldset of `FilterSelect`s. */
  toolbar?: ReactNode;
  /** Defaults to skeleton rows labelled "Loading…". */
  loading?: ReactNode;
  /** Shown instead of the table when there are no rows; say whether a search or filter is why. */
  empty: ReactNode;
  loadMoreLabel?: string;
  inset?: boolean;
}) {
  const list = (rows: TRow[]) => (
    <>
      <DataTable
        columns={columns}
        data={rows}
        label={label}
        getRowId={getRowId}
        rowClassName={rowClassName}
        rowAttributes={rowAttributes}
        sortable={false}
      />
      <PagingFooter query={query} loadMoreLabel={loadMoreLabel} />
    </>
  );
  const body = (
    <QueryState query={query} loading={loading} empty={empty}>
      {(rows) => (inset ? list(rows) : <Card>{list(rows)}</Card>)}
    </QueryState>
  );
  if (!inset) {
    return (
      <div className="space-y-4">
        {toolbar}
        {body}
      </div>
    );
  }
  return (
    <>
      {toolbar ? <div className="space-y-2 border-b border-zinc-100 px-4 py-3">{toolbar}</div> : null}
      <div className="p-2">{body}</div>
    </>
  );
}

function PagingFooter<TRow>({ query, loadMoreLabel }: { query: KeysetQuery<TRow>; loadMoreLabel: string }) {
  const { fetchNextPage } = query;
  // A plain query's list is the whole list: there is no next page to offer, nor an end to mark.
  if (!fetchNextPage) return null;
  return (
    <div className="border-t border-zinc-100 px-4 py-3 text-center">
      {query.hasNextPage ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={query.isFetchingNextPage}
          onClick={() => void fetchNextPage()}
        >
          {query.isFetchingNextPage ? "Loading…" : loadMoreLabel}
        </Button>
      ) : (
        <p className="text-xs text-zinc-400">End of list</p>
      )}
    </div>
  );
}

/** A labelled search box for a KeysetTable's toolbar. */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="max-w-sm"
      />
    </div>
  );
}

/** The value of a FilterSelect that filters nothing out (a Select item cannot be `""`). */
export const FILTER_ALL = "all";

/**
 * One filter of a KeysetTable's toolbar: "All" (`FILTER_ALL`), then `options`. The visible label
 * is hidden from assistive technology because the trigger carries the same name, so the combobox
 * is announced once, by `label`.
 */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="min-w-0">
      <span className="mb-1 block text-xs font-medium text-zinc-500" aria-hidden="true">
        {label}
      </span>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger aria-label={label} className="h-8">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={FILTER_ALL}>All</SelectItem>
          {options.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
