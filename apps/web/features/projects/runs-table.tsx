"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError, Input, Label } from "@/components/ui/form";
import { FleetIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/cn";
import { useTRPC } from "@/lib/trpc/client";

interface Run {
  agentRunId: string;
  name: string | null;
  parentAgentRunId: string | null;
  isAuto: boolean;
  lastSeenAt: string;
  callCount: number;
  costUsd: number;
  avoidedCostUsd: number;
  unpricedCalls: number;
  velocityFlags: string[];
  stopped: boolean;
  stopReason: string | null;
}

const usd2 = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 2 });
const usd6 = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumSignificantDigits: 3,
});
/** Cents for ordinary amounts; three significant digits below a cent, so a cheap run is not "$0.00". */
const money = (n: number) => (n > 0 && n < 0.01 ? usd6.format(n) : usd2.format(n));
const when = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

const FLAG_LABEL: Record<string, string> = {
  repeat_size: "Repeat size",
  monotonic_growth: "Growing prompts",
  rate_acceleration: "Accelerating",
};

/** Runs in tree order: each run followed by its loaded children, indented by depth. */
function treeOrder(runs: Run[]): { run: Run; depth: number }[] {
  const ids = new Set(runs.map((r) => r.agentRunId));
  const children = new Map<string, Run[]>();
  const roots: Run[] = [];
  for (const r of runs) {
    if (r.parentAgentRunId && r.parentAgentRunId !== r.agentRunId && ids.has(r.parentAgentRunId)) {
      const list = children.get(r.parentAgentRunId) ?? [];
      list.push(r);
      children.set(r.parentAgentRunId, list);
    } else roots.push(r);
  }
  const out: { run: Run; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (r: Run, depth: number) => {
    if (seen.has(r.agentRunId)) return;
    seen.add(r.agentRunId);
    out.push({ run: r, depth });
    for (const c of children.get(r.agentRunId) ?? []) visit(c, Math.min(depth + 1, 6));
  };
  for (const r of roots) visit(r, 0);
  // A parent cycle leaves runs unvisited: show them flat rather than drop them.
  for (const r of runs) visit(r, 0);
  return out;
}

/** A project's agent runs: spend, avoided cost, calls, velocity flags, hierarchy; Stop and Resume for members. */
export function RunsTable({
  projectId,
  canManage,
  highlight,
}: {
  projectId: string;
  canManage: boolean;
  highlight: string | null;
}) {
  const trpc = useTRPC();
  const runs = useInfiniteQuery(
    trpc.run.list.infiniteQueryOptions(
      { projectId, limit: 25 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const deepLinked = useQuery({
    ...trpc.run.get.queryOptions({ projectId, agentRunId: highlight ?? "" }),
    enabled: highlight !== null,
    retry: false,
  });
  const all = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  const query = {
    data: runs.data ? all : undefined,
    error: runs.error,
    isPending: runs.isPending,
    refetch: runs.refetch,
  };

  return (
    <div className="space-y-6">
      {highlight !== null ? (
        <Card>
          <CardHeader title="Selected run" description="Opened from a link to this run." />
          <div className="px-5 py-4" data-testid="selected-run">
            {deepLinked.isPending ? (
              <p className="text-[13px] text-zinc-500">Loading run…</p>
            ) : deepLinked.data ? (
              <RunSummary run={deepLinked.data} projectId={projectId} canManage={canManage} />
            ) : (
              <p className="text-[13px] text-zinc-500">
                No run <span className="font-mono">{highlight}</span> in this project yet. Runs appear when
                their first call is recorded.
              </p>
            )}
          </div>
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Agent runs"
          description="Most recently active first. Stopping a run makes its next budget check answer run_stopped; the SDK terminates the run."
        />
        <QueryState
          query={query}
          empty={
            <EmptyState
              className="m-5"
              icon={<FleetIcon size={18} />}
              title="No agent runs yet"
              description="Runs appear as SDKs record calls with an agent_run_id (run-less traffic is grouped per instance and day)."
            />
          }
        >
          {(list) => (
            <>
              <Table aria-label="Agent runs">
                <TableHeader>
                  <TableRow>
                    <TableHead>Run</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="text-right">Calls</TableHead>
                    <TableHead className="text-right">Spend</TableHead>
                    <TableHead className="text-right">Avoided</TableHead>
                    <TableHead>Velocity</TableHead>
                    <TableHead>Last seen (UTC)</TableHead>
                    {canManage ? <TableHead className="text-right">Control</TableHead> : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {treeOrder(list).map(({ run, depth }) => (
                    <TableRow
                      key={run.agentRunId}
                      data-testid="run-row"
                      data-run-id={run.agentRunId}
                      aria-current={run.agentRunId === highlight ? "true" : undefined}
                      className={cn(run.agentRunId === highlight && "bg-brand-50/60")}
                    >
                      <TableCell>
                        <div
                          className="flex min-w-0 items-center gap-1.5"
                          style={{ paddingLeft: depth * 16 }}
                        >
                          {depth > 0 ? (
                            <span aria-hidden className="text-zinc-300">
                              └
                            </span>
                          ) : null}
                          <div className="min-w-0">
                            <div
                              className="max-w-64 truncate font-mono text-[12px] text-zinc-900"
                              title={run.agentRunId}
                            >
                              {run.agentRunId}
                            </div>
                            {run.name ? (
                              <div className="max-w-64 truncate text-xs text-zinc-500">{run.name}</div>
                            ) : null}
                          </div>
                          {run.isAuto ? <Badge>auto</Badge> : null}
                        </div>
                      </TableCell>
                      <TableCell>
                        {run.stopped ? (
                          <Badge tone="red">Stopped</Badge>
                        ) : (
                          <Badge tone="green">Running</Badge>
                        )}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {run.callCount.toLocaleString("en-US")}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {money(run.costUsd)}
                        {run.unpricedCalls > 0 ? (
                          <div className="text-[11px] text-zinc-400">{run.unpricedCalls} unpriced</div>
                        ) : null}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{money(run.avoidedCostUsd)}</TableCell>
                      <TableCell>
                        <div className="flex flex-wrap gap-1">
                          {run.velocityFlags.length === 0 ? (
                            <span className="text-zinc-300">—</span>
                          ) : (
                            run.velocityFlags.map((f) => (
                              <Badge key={f} tone="amber">
                                {FLAG_LABEL[f] ?? f}
                              </Badge>
                            ))
                          )}
                        </div>
                      </TableCell>
                      <TableCell className="whitespace-nowrap text-zinc-500">
                        {when.format(new Date(run.lastSeenAt))}
                      </TableCell>
                      {canManage ? (
                        <TableCell className="text-right">
                          <RunControl run={run} projectId={projectId} />
                        </TableCell>
                      ) : null}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {runs.hasNextPage ? (
                <div className="border-t border-zinc-100 px-5 py-3">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={runs.isFetchingNextPage}
                    onClick={() => void runs.fetchNextPage()}
                  >
                    {runs.isFetchingNextPage ? "Loading…" : "Load more runs"}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </QueryState>
      </Card>
    </div>
  );
}

function RunSummary({ run, projectId, canManage }: { run: Run; projectId: string; canManage: boolean }) {
  return (
    <dl className="grid gap-4 text-[13px] sm:grid-cols-5">
      <div className="min-w-0 sm:col-span-2">
        <dt className="text-xs text-zinc-500">Run</dt>
        <dd className="truncate font-mono text-[12px] text-zinc-900" title={run.agentRunId}>
          {run.agentRunId}
        </dd>
        {run.parentAgentRunId ? (
          <dd className="truncate text-xs text-zinc-500">child of {run.parentAgentRunId}</dd>
        ) : null}
      </div>
      <div>
        <dt className="text-xs text-zinc-500">Spend</dt>
        <dd className="tabular-nums">{money(run.costUsd)}</dd>
      </div>
      <div>
        <dt className="text-xs text-zinc-500">Status</dt>
        <dd>
          {run.stopped ? (
            <Badge tone="red">Stopped: {run.stopReason}</Badge>
          ) : (
            <Badge tone="green">Running</Badge>
          )}
        </dd>
      </div>
      {canManage ? (
        <div className="sm:text-right">
          <RunControl run={run} projectId={projectId} />
        </div>
      ) : null}
    </dl>
  );
}

/** Stop (confirmed, with a reason the SDK receives) or Resume. */
function RunControl({ run, projectId }: { run: Run; projectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("manual_kill");
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.run.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.run.get.pathKey() }),
    ]);
  };
  const stop = useMutation(
    trpc.run.stop.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await refresh();
      },
    }),
  );
  const resume = useMutation(trpc.run.resume.mutationOptions({ onSuccess: refresh }));
  if (run.stopped) {
    return (
      <Button
        variant="secondary"
        size="sm"
        disabled={resume.isPending}
        aria-label={`Resume run ${run.agentRunId}`}
        onClick={() => resume.mutate({ projectId, agentRunId: run.agentRunId })}
      >
        Resume
      </Button>
    );
  }
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <Button
        variant="danger"
        size="sm"
        aria-label={`Stop run ${run.agentRunId}`}
        onClick={() => setOpen(true)}
      >
        Stop
      </Button>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Stop this run?</AlertDialogTitle>
          <AlertDialogDescription>
            The next budget check for <span className="font-mono">{run.agentRunId}</span> answers run_stopped
            with a terminate directive, on every SDK instance. You can resume it later.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <div>
          <Label htmlFor={`stop-reason-${run.agentRunId}`}>Reason</Label>
          <Input
            id={`stop-reason-${run.agentRunId}`}
            value={reason}
            maxLength={64}
            onChange={(e) => setReason(e.target.value)}
          />
          <p className="mt-1.5 text-xs text-zinc-500">
            Sent to the SDK as the directive&apos;s reason (1–64 characters).
          </p>
        </div>
        <FormError message={stop.error?.message} />
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            destructive
            disabled={stop.isPending}
            onClick={(e) => {
              // Keep the dialog open until the stop is recorded (or refused).
              e.preventDefault();
              stop.mutate({ projectId, agentRunId: run.agentRunId, reason });
            }}
          >
            Stop run
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
