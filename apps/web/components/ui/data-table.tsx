"use client";

import {
  type ColumnDef,
  type ColumnDefTemplate,
  getCoreRowModel,
  getSortedRowModel,
  type RowData,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { type ReactNode, useState } from "react";
import { cn } from "@/lib/cn";
import { ChevronDownIcon, ChevronsIcon, ChevronUpIcon } from "./icons";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

export type { ColumnDef } from "@tanstack/react-table";

declare module "@tanstack/react-table" {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for this column's body cells (wrapping, numerals, type). */
    cellClassName?: string;
  }
}

/** `data-*` attributes of a body row, e.g. the `data-testid` a Playwright spec finds it by. */
export type RowAttributes = Record<`data-${string}`, string>;

/**
 * A header's or cell's content. Called as a function, not mounted as a component the way
 * `flexRender` does: columns built in a view's render (closing over its state) are new functions
 * every render, and as components every cell would remount each time — closing a dialog opened
 * from a row whenever the list refetched. So a renderer calls no hooks; it returns a component
 * that does.
 */
function render<TProps extends object>(
  template: ColumnDefTemplate<TProps> | undefined,
  props: TProps,
): ReactNode {
  return typeof template === "function" ? template(props) : template;
}

/**
 * A Table driven by TanStack Table: columns as `ColumnDef`s, click (or Enter on) a sortable
 * header to sort; the header carries `aria-sort`. Sorting is client-side over `data`; pass
 * `sortable={false}` when `data` is not the whole list (a page of it) or its order is the point.
 */
export function DataTable<TData, TValue = unknown>({
  columns,
  data,
  initialSorting = [],
  sortable = true,
  empty,
  getRowId,
  rowClassName,
  rowAttributes,
  caption,
  label,
}: {
  columns: ColumnDef<TData, TValue>[];
  data: TData[];
  initialSorting?: SortingState;
  sortable?: boolean;
  /** Shown in a single row when `data` is empty. */
  empty?: ReactNode;
  getRowId?: (row: TData) => string;
  rowClassName?: (row: TData) => string | undefined;
  rowAttributes?: (row: TData) => RowAttributes;
  /** A visually hidden caption, which names the table. */
  caption?: string;
  /** The table's accessible name as `aria-label`, for a table that has no caption. */
  label?: string;
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    enableSorting: sortable,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    ...(getRowId ? { getRowId: (row: TData) => getRowId(row) } : {}),
  });

  return (
    <Table aria-label={label}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <TableHeader>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const title = header.isPlaceholder
                ? null
                : render(header.column.columnDef.header, header.getContext());
              return (
                <TableHead
                  key={header.id}
                  aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                >
                  {header.column.getCanSort() ? (
                    <button
                      type="button"
                      onClick={header.column.getToggleSortingHandler()}
                      className="-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-brand-500"
                    >
                      {title}
                      {sorted === "asc" ? (
                        <ChevronUpIcon size={12} />
                      ) : sorted === "desc" ? (
                        <ChevronDownIcon size={12} />
                      ) : (
                        <ChevronsIcon size={12} className="text-zinc-300" />
                      )}
                    </button>
                  ) : (
                    title
                  )}
                </TableHead>
              );
            })}
          </TableRow>
        ))}
      </TableHeader>
      <TableBody>
        {table.getRowModel().rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={columns.length} className="py-8 text-center text-zinc-500">
              {empty ?? "Nothing here yet."}
            </TableCell>
          </TableRow>
        ) : (
          table.getRowModel().rows.map((row) => (
            <TableRow
              key={row.id}
              className={cn(rowClassName?.(row.original))}
              {...rowAttributes?.(row.original)}
            >
              {row.getVisibleCells().map((cell) => (
                <TableCell key={cell.id} className={cell.column.columnDef.meta?.cellClassName}>
                  {render(cell.column.columnDef.cell, cell.getContext())}
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
