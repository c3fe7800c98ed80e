"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/form";
import { PricesIcon } from "@/components/ui/icons";
import { Card } from "@/components/ui/page";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";

/** USD per million tokens as the card states it ("2.5" → "$2.50"). */
export function formatRate(rate: string | null | undefined): string {
  if (rate === null || rate === undefined) return "—";
  const n = Number(rate);
  return `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
}

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
  const cards = { ...pages, data: pages.data?.pages.flatMap((p) => p.items) };
  return (
    <Card>
      <div className="border-b border-zinc-100 px-4 py-3">
        <Label htmlFor="card-search">Search cards</Label>
        <Input
          id="card-search"
          type="search"
          placeholder="Provider, model or alias"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="max-w-sm"
        />
      </div>
      <div className="p-2">
        <QueryState
          query={cards}
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
        >
          {(rows) => (
            <Table aria-label="Price cards">
              <TableHeader>
                <TableRow>
                  <TableHead>Model</TableHead>
                  <TableHead>Input / 1M</TableHead>
                  <TableHead>Cached / 1M</TableHead>
                  <TableHead>Output / 1M</TableHead>
                  <TableHead>Long context</TableHead>
                  <TableHead>Source</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((c) => (
                  <TableRow key={c.id} data-testid={`card-row-${c.provider}-${c.model}`}>
                    <TableCell>
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
                    </TableCell>
                    <TableCell className="tabular-nums">{formatRate(c.inputPerMtok)}</TableCell>
                    <TableCell className="tabular-nums">{formatRate(c.cachedInputPerMtok)}</TableCell>
                    <TableCell className="tabular-nums">{formatRate(c.outputPerMtok)}</TableCell>
                    <TableCell className="tabular-nums">
                      {c.longContext ? `> ${c.longContext.threshold.toLocaleString("en-US")} tok` : "—"}
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-zinc-500">
                      {c.sourceDate}
                      {c.updatedById ? (
                        <Badge tone="amber" className="ml-1.5">
                          Edited
                        </Badge>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
        {pages.hasNextPage ? (
          <div className="flex justify-center p-3">
            <Button
              variant="secondary"
              size="sm"
              disabled={pages.isFetchingNextPage}
              onClick={() => void pages.fetchNextPage()}
            >
              {pages.isFetchingNextPage ? "Loading…" : "Show more cards"}
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
