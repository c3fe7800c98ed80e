"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { FormError, Input, Label } from "@/components/ui/form";
import { CheckIcon, PricesIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, formatWhen } from "./format";

const ACTIVE = new Set(["queued", "running", "rebuilding"]);
const STATUS: Record<string, string> = {
  queued: "Queued",
  running: "Re-pricing",
  rebuilding: "Rebuilding rollups",
  done: "Done",
  failed: "Failed",
};

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

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Re-pricing runs"
          description="Past unpriced events of a model priced after the fact, re-priced in batches; then the affected hours' usage is rebuilt."
        />
        <div className="p-2">
          <QueryState
            query={runs}
            loading={<LoadingState label="Loading runs" rows={2} />}
            empty={<p className="px-3 py-4 text-[13px] text-zinc-500">No model has been re-priced yet.</p>}
          >
            {(rows) => (
              <Table aria-label="Re-pricing runs">
                <TableHeader>
                  <TableRow>
                    <TableHead>Model</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Progress</TableHead>
                    <TableHead>Started</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((r) => {
                    const pct =
                      r.total > 0
                        ? Math.min(100, Math.round(((r.repriced + r.skipped) / r.total) * 100))
                        : 100;
                    return (
                      <TableRow key={r.id} data-testid={`run-${r.provider}-${r.model}`}>
                        <TableCell className="whitespace-nowrap">
                          {r.provider}/{r.model}
                        </TableCell>
                        <TableCell>
                          <Badge
                            tone={r.status === "done" ? "green" : r.status === "failed" ? "red" : "brand"}
                          >
                            {r.status === "done" ? <CheckIcon size={12} /> : null}
                            {STATUS[r.status] ?? r.status}
                          </Badge>
                        </TableCell>
                        <TableCell className="min-w-48">
                          <div
                            role="progressbar"
                            aria-label={`Re-pricing ${r.provider}/${r.model}`}
                            aria-valuemin={0}
                            aria-valuemax={100}
                            aria-valuenow={pct}
                            className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-100"
                          >
                            <div
                              className="h-full bg-brand-600 transition-all"
                              style={{ width: `${pct}%` }}
                            />
                          </div>
                          <span
                            className="mt-1 block text-[11px] tabular-nums text-zinc-500"
                            data-testid="run-progress"
                          >
                            {r.repriced} of {r.total} re-priced
                            {r.skipped ? ` · ${r.skipped} still unpriced` : ""}
                          </span>
                        </TableCell>
                        <TableCell className="whitespace-nowrap text-zinc-500">
                          {formatWhen(r.createdAt)}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </QueryState>
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Unpriced models seen in traffic"
          description="Counted in tokens and shown as unpriced (never $0) until a card prices them. The 200 with most calls."
        />
        <div className="border-b border-zinc-100 px-4 py-3">
          <Label htmlFor="unpriced-search">Search unpriced models</Label>
          <Input
            id="unpriced-search"
            type="search"
            placeholder="Provider or model"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="max-w-sm"
          />
        </div>
        <div className="p-2">
          <FormError message={start.error ? errorInfo(start.error).message : null} />
          <QueryState
            query={models}
            loading={<LoadingState label="Loading unpriced models" rows={4} />}
            empty={
              <EmptyState
                icon={<PricesIcon size={18} />}
                title={deferred ? "No unpriced model matches" : "Every model in traffic is priced"}
                description="Models the catalogue cannot price show up here with their calls and tokens."
              />
            }
          >
            {(rows) => (
              <Table aria-label="Unpriced models">
                <TableHeader>
                  <TableRow>
                    <TableHead>Model</TableHead>
                    <TableHead>Calls</TableHead>
                    <TableHead>Tokens</TableHead>
                    <TableHead>First seen</TableHead>
                    <TableHead>Last seen</TableHead>
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((m) => {
                    const active = m.run !== null && ACTIVE.has(m.run.status);
                    return (
                      <TableRow
                        key={`${m.provider}/${m.model}`}
                        data-testid={`unpriced-${m.provider}-${m.model}`}
                      >
                        <TableCell className="whitespace-nowrap font-medium text-zinc-900">
                          {m.provider}/{m.model}
                        </TableCell>
                        <TableCell className="tabular-nums">{m.calls.toLocaleString("en-US")}</TableCell>
                        <TableCell className="tabular-nums">
                          {BigInt(m.tokens).toLocaleString("en-US")}
                        </TableCell>
                        <TableCell className="whitespace-nowrap text-zinc-500">
                          {formatWhen(m.firstSeen)}
                        </TableCell>
                        <TableCell className="whitespace-nowrap text-zinc-500">
                          {formatWhen(m.lastSeen)}
                        </TableCell>
                        <TableCell className="whitespace-nowrap">
                          {active ? (
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
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </QueryState>
        </div>
      </Card>
    </div>
  );
}
