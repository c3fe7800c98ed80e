"use client";

import type { AppRouter } from "@breakwater/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useDeferredValue, useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, ButtonLink } from "@/components/ui/button";
import type { ColumnDef } from "@/components/ui/data-table";
import { FormError } from "@/components/ui/form";
import { CheckIcon, PricesIcon } from "@/components/ui/icons";
import { KeysetTable, SearchField } from "@/components/ui/keyset-table";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, formatWhen } from "./format";

type Out = inferRouterOutputs<AppRouter>["operator"];
type RepriceRun = Out["listRepriceRuns"][number];
type UnpricedModel = Out["listUnpricedModels"][number];

const ACTIVE = new Set(["queued", "running", "rebuilding"]);
const STATUS: Record<string, string> = {
  queued: "Queued",
  running: "Re-pricing",
  rebuilding: "Rebuilding rollups",
  done: "Done",
  failed: "Failed",
};

const runColumns: ColumnDef<RepriceRun>[] = [
  {
    header: "Model",
    cell: ({ row: { original: r } }) => `${r.provider}/${r.model}`,
    meta: { cellClassName: "whitespace-nowrap" },
  },
  {
    header: "Status",
    cell: ({ row: { original: r } }) => (
      <Badge tone={r.status === "done" ? "green" : r.status === "failed" ? "red" : "brand"}>
        {r.status === "done" ? <CheckIcon size={12} /> : null}
        {STATUS[r.status] ?? r.status}
      </Badge>
    ),
  },
  {
    header: "Progress",
    cell: ({ row: { original: r } }) => {
      const pct = r.total > 0 ? Math.min(100, Math.round(((r.repriced + r.skipped) / r.total) * 100)) : 100;
      return (
        <>
          <div
            role="progressbar"
            aria-label={`Re-pricing ${r.provider}/${r.model}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
            className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-100"
          >
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${pct}%` }} />
          </div>
          <span className="mt-1 block text-[11px] tabular-nums text-zinc-500" data-testid="run-progress">
            {r.repriced} of {r.total} re-priced
            {r.skipped ? ` · ${r.skipped} still unpriced` : ""}
          </span>
        </>
      );
    },
    meta: { cellClassName: "min-w-48" },
  },
  {
    header: "Started",
    cell: ({ row }) => formatWhen(row.original.createdAt),
    meta: { cellClassName: "whitespace-nowrap text-zinc-500" },
  },
];

/**
 * Models seen in traffic that no card priced (calls, tokens, first and last seen), each with
 * "Price it" (the card editor, prefilled; saving re-prices the past events) — and the re-pricing
 * runs with their progress, polled every second while one is active.
 */
export function UnpricedModels() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const runs = useQuery({
    ...trpc.operator.listRepriceRuns.queryOptions(),
    refetchInterval: (q) => (q.state.data?.some((r) => ACTIVE.has(r.status)) ? 1000 : false),
  });
  const anyActive = runs.data?.some((r) => ACTIVE.has(r.status)) ?? false;
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const models = useQuery({
    ...trpc.operator.listUnpricedModels.queryOptions({ search: deferred }),
    refetchInterval: anyActive ? 2000 : false,
  });
  // When the last active run finishes, its model leaves the list: read it once more then.
  const wasActive = useRef(anyActive);
  useEffect(() => {
    if (wasActive.current && !anyActive)
      void queryClient.invalidateQueries({ queryKey: trpc.operator.listUnpricedModels.pathKey() });
    wasActive.current = anyActive;
  }, [anyActive, queryClient, trpc]);
  const start = useMutation(
    trpc.operator.startRepricing.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.operator.pathKey() }),
    }),
  );

  const modelColumns: ColumnDef<UnpricedModel>[] = [
    {
      header: "Model",
      cell: ({ row: { original: m } }) => `${m.provider}/${m.model}`,
      meta: { cellClassName: "whitespace-nowrap font-medium text-zinc-900" },
    },
    {
      header: "Calls",
      cell: ({ row }) => row.original.calls.toLocaleString("en-US"),
      meta: { cellClassName: "tabular-nums" },
    },
    {
      header: "Tokens",
      cell: ({ row }) => BigInt(row.original.tokens).toLocaleString("en-US"),
      meta: { cellClassName: "tabular-nums" },
    },
    {
      header: "First seen",
      cell: ({ row }) => formatWhen(row.original.firstSeen),
      meta: { cellClassName: "whitespace-nowrap text-zinc-500" },
    },
    {
      header: "Last seen",
      cell: ({ row }) => formatWhen(row.original.lastSeen),
      meta: { cellClassName: "whitespace-nowrap text-zinc-500" },
    },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original: m } }) =>
        m.run !== null && ACTIVE.has(m.run.status) ? (
          <Badge tone="brand">Re-pricing…</Badge>
        ) : m.pricedNow ? (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Re-price ${m.provider}/${m.model}`}
            disabled={start.isPending}
            onClick={() => start.mutate({ provider: m.provider, model: m.model })}
          >
            Re-price past events
          </Button>
        ) : (
          <ButtonLink
            size="sm"
            variant="secondary"
            aria-label={`Price ${m.provider}/${m.model}`}
            href={`/plans/prices/new?provider=${encodeURIComponent(m.provider)}&model=${encodeURIComponent(m.model)}&reprice=1`}
          >
            Price it
          </ButtonLink>
        ),
      meta: { cellClassName: "whitespace-nowrap" },
    },
  ];

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Re-pricing runs"
          description="Past unpriced events of a model priced after the fact, re-priced in batches; then the affected hours' usage is rebuilt."
        />
        <KeysetTable
          inset
          query={runs}
          columns={runColumns}
          label="Re-pricing runs"
          getRowId={(r) => r.id}
          rowAttributes={(r) => ({ "data-testid": `run-${r.provider}-${r.model}` })}
          loading={<LoadingState label="Loading runs" rows={2} />}
          empty={<p className="px-3 py-4 text-[13px] text-zinc-500">No model has been re-priced yet.</p>}
        />
      </Card>

      <Card>
        <CardHeader
          title="Unpriced models seen in traffic"
          description="Counted in tokens and shown as unpriced (never $0) until a card prices them. The 200 with most calls."
        />
        <KeysetTable
          inset
          query={models}
          columns={modelColumns}
          label="Unpriced models"
          getRowId={(m) => `${m.provider}/${m.model}`}
          rowAttributes={(m) => ({ "data-testid": `unpriced-${m.provider}-${m.model}` })}
          toolbar={
            <>
              <SearchField
                id="unpriced-search"
                label="Search unpriced models"
                placeholder="Provider or model"
                value={search}
                onChange={setSearch}
              />
              {/* A refused re-pricing, just above the rows it is about. */}
              <FormError message={start.error ? errorInfo(start.error).message : null} />
            </>
          }
          loading={<LoadingState label="Loading unpriced models" rows={4} />}
          empty={
            <EmptyState
              icon={<PricesIcon size={18} />}
              title={deferred ? "No unpriced model matches" : "Every model in traffic is priced"}
              description="Models the catalogue cannot price show up here with their calls and tokens."
            />
          }
        />
      </Card>
    </div>
  );
}
