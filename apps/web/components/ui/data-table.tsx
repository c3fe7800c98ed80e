"use client";

import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { type ReactNode, useState } from "react";
import { cn } from "@/lib/cn";
import { ChevronDownIcon, ChevronsIcon, ChevronUpIcon } from "./icons";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

export type { ColumnDef } from "@tanstack/react-table";

/**
 * A Table driven by TanStack Table: columns as `ColumnDef`s, click (or Enter on) a sortable
 * header to sort; the header carries `aria-sort`. Sorting is client-side over `data`.
 */
export function DataTable<TData, TValue = unknown>({
  columns,
  data,
  initialSorting = [],
  empty,
  getRowId,
  rowClassName,
  caption,
}: {
  columns: ColumnDef<TData, TValue>[];
  data: TData[];
  initialSorting?: SortingState;
  /** Shown in a single row when `data` is empty. */
  empty?: ReactNode;
  getRowId?: (row: TData) => string;
  rowClassName?: (row: TData) => string | undefined;
  caption?: string;
}) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    ...(getRowId ? { getRowId: (row: TData) => getRowId(row) } : {}),
  });

  return (
    <Table>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <TableHeader>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const label = header.isPlaceholder
                ? null
                : flexRender(header.column.columnDef.header, header.getContext());
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
                      {label}
                      {sorted === "asc" ? (
                        <ChevronUpIcon size={12} />
                      ) : sorted === "desc" ? (
                        <ChevronDownIcon size={12} />
                      ) : (
                        <ChevronsIcon size={12} className="text-zinc-300" />
                      )}
                    </button>
                  ) : (
                    label
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
            <TableRow key={row.id} className={cn(rowClassName?.(row.original))}>
              {row.getVisibleCells().map((cell) => (
                <TableCell key={cell.id}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
