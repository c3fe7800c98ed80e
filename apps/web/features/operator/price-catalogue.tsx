"use client";

import type { AppRouter } from "@breakwater/api";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { Badge } from "@/components/ui/badge";
import type { ColumnDef } from "@/components/ui/data-table";
import { PricesIcon } from "@/components/ui/icons";
import { infiniteRows, KeysetTable, SearchField } from "@/components/ui/keyset-table";
import { Card } from "@/components/ui/page";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";

type PriceCardRow = inferRouterOutputs<AppRouter>["operator"]["listPriceCards"]["items"][number];

/** USD per million tokens as the card states it ("2.5" → "$2.50"). */
export function formatRate(rate: string | null | undefined): string {
  if (rate === null || rate === undefined) return "—";
  const n = Number(rate);
  return `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
}

const columns: ColumnDef<PriceCardRow>[] = [
  {
    header: "Model",
    cell: ({ row: { original: c } }) => (
      <>
        <Link
          href={`/plans/prices/${c.id}`}
          className="font-medium text-zinc-900 underline-offset-4 hover:underline"
        >
          {c.provider}/{c.model}
        </Link>
        {c.aliases?.length ? (
          <span className="ml-1.5 text-[11px] text-zinc-400">+{c.aliases.length} aliases</span>
        ) : null}
        {c.unit && c.unit !== "token" ? <Badge className="ml-1.5">per {c.unit}</Badge> : null}
      </>
    ),
  },
  {
    header: "Input / 1M",
    cell: ({ row }) => formatRate(row.original.inputPerMtok),
    meta: { cellClassName: "tabular-nums" },
  },
  {
    header: "Cached / 1M",
    cell: ({ row }) => formatRate(row.original.cachedInputPerMtok),
    meta: { cellClassName: "tabular-nums" },
  },
  {
    header: "Output / 1M",
    cell: ({ row }) => formatRate(row.original.outputPerMtok),
    meta: { cellClassName: "tabular-nums" },
  },
  {
    header: "Long context",
    cell: ({ row: { original: c } }) =>
      c.longContext ? `> ${c.longContext.threshold.toLocaleString("en-US")} tok` : "—",
    meta: { cellClassName: "tabular-nums" },
  },
  {
    header: "Source",
    cell: ({ row: { original: c } }) => (
      <>
        {c.sourceDate}
        {c.updatedById ? (
          <Badge tone="amber" className="ml-1.5">
            Edited
          </Badge>
        ) : null}
      </>
    ),
    meta: { cellClassName: "whitespace-nowrap text-zinc-500" },
  },
];

/** The price cards, searched by provider, model or alias, 50 at a time. */
export function PriceCatalogue() {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const pages = useInfiniteQuery(
    trpc.operator.listPriceCards.infiniteQueryOptions(
      { search: deferred, limit: 50 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  return (
    <Card>
      <KeysetTable
        inset
        query={infiniteRows(pages, (page) => page.items)}
        columns={columns}
        label="Price cards"
        getRowId={(c) => c.id}
        rowAttributes={(c) => ({ "data-testid": `card-row-${c.provider}-${c.model}` })}
        toolbar={
          <SearchField
            id="card-search"
            label="Search cards"
            placeholder="Provider, model or alias"
            value={search}
            onChange={setSearch}
          />
        }
        loading={<LoadingState label="Loading price cards" rows={6} />}
        empty={
          <EmptyState
            icon={<PricesIcon size={18} />}
            title={deferred ? "No card matches" : "No price cards yet"}
            description={
              deferred
                ? "No provider, model id or alias contains that text."
                : "Run the seed (npm run -s bw -- seed) or add a card."
            }
          />
        }
        loadMoreLabel="Show more cards"
      />
    </Card>
  );
}
