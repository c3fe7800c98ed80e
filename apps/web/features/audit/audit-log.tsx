"use client";

import type { AppRouter } from "@breakwater/api";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ColumnDef } from "@/components/ui/data-table";
import { Input, Label } from "@/components/ui/form";
import { AuditIcon } from "@/components/ui/icons";
import { FILTER_ALL, FilterSelect, infiniteRows, KeysetTable } from "@/components/ui/keyset-table";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";

type AuditEvent = inferRouterOutputs<AppRouter>["audit"]["list"]["events"][number];

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
}

/** "webhook_endpoint" → "Webhook endpoint". */
const kindLabel = (kind: string) => (kind.charAt(0).toUpperCase() + kind.slice(1)).replace(/_/g, " ");

function actorLabel(e: AuditEvent): string {
  if (e.actor.type === "system") return `System (${e.actor.id ?? "job"})`;
  if (e.actor.type === "api_key") return `API key ${e.actor.id ?? ""}`;
  if (e.actor.type === "management_key") return `Management key ${e.actor.name ?? e.actor.id ?? ""}`;
  return e.actor.name ?? e.actor.id ?? "Unknown";
}

/** The audit log: newest first, filtered by actor, kind and dates, paged by key; an event opens in a sheet. */
export function AuditLog({ retentionDays }: { retentionDays: number }) {
  const trpc = useTRPC();
  const [actorId, setActorId] = useState(FILTER_ALL);
  const [kind, setKind] = useState(FILTER_ALL);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [open, setOpen] = useState<AuditEvent | null>(null);
  const filters = useQuery(trpc.audit.filters.queryOptions());

  const input = {
    limit: 50,
    actorId: actorId === FILTER_ALL ? undefined : actorId,
    kind: kind === FILTER_ALL ? undefined : kind,
    // Whole UTC days, both ends included.
    from: from ? new Date(`${from}T00:00:00.000Z`) : undefined,
    to: to ? new Date(`${to}T23:59:59.999Z`) : undefined,
  };
  const log = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const columns: ColumnDef<AuditEvent>[] = [
    {
      header: "Time",
      cell: ({ row }) => formatDateTime(row.original.createdAt),
      meta: { cellClassName: "whitespace-nowrap text-zinc-600" },
    },
    {
      header: "Actor",
      cell: ({ row: { original: e } }) => (
        <>
          <div className="font-medium text-zinc-900">{actorLabel(e)}</div>
          {e.actor.email ? <div className="text-xs text-zinc-500">{e.actor.email}</div> : null}
        </>
      ),
      meta: { cellClassName: "whitespace-nowrap" },
    },
    {
      header: "Action",
      cell: ({ row }) => row.original.action,
      meta: { cellClassName: "font-mono text-[12px] whitespace-nowrap text-zinc-900" },
    },
    {
      header: "Target",
      cell: ({ row: { original: e } }) => (
        <>
          <Badge tone="neutral">{kindLabel(e.targetType)}</Badge>{" "}
          <span className="font-mono text-[11px] text-zinc-400">{e.targetId}</span>
        </>
      ),
      meta: { cellClassName: "whitespace-nowrap" },
    },
    {
      id: "details",
      header: () => <span className="sr-only">Details</span>,
      cell: ({ row: { original: e } }) => (
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setOpen(e)}
          aria-label={`Details of ${e.action} ${e.id}`}
        >
          Details
        </Button>
      ),
      meta: { cellClassName: "text-right" },
    },
  ];

  return (
    <>
      <KeysetTable
        query={infiniteRows(log, (page) => page.events)}
        columns={columns}
        label="Audit events"
        getRowId={(e) => e.id}
        rowAttributes={(e) => ({ "data-testid": "audit-row", "data-action": e.action })}
        toolbar={
          <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <legend className="sr-only">Filters</legend>
            <FilterSelect
              label="Actor"
              value={actorId}
              onChange={setActorId}
              options={[
                ...(filters.data?.actors ?? []).map((a) => ({ value: a.id, label: a.name })),
                { value: "system", label: "System" },
              ]}
            />
            <FilterSelect
              label="Kind"
              value={kind}
              onChange={setKind}
              options={(filters.data?.kinds ?? []).map((k) => ({ value: k, label: kindLabel(k) }))}
            />
            <div className="min-w-0">
              <Label htmlFor="audit-from">From</Label>
              <Input
                id="audit-from"
                type="date"
                className="h-8"
                value={from}
                onChange={(e) => setFrom(e.target.value)}
              />
            </div>
            <div className="min-w-0">
              <Label htmlFor="audit-to">To</Label>
              <Input
                id="audit-to"
                type="date"
                className="h-8"
                value={to}
                onChange={(e) => setTo(e.target.value)}
              />
            </div>
          </fieldset>
        }
        loading={<LoadingState rows={5} />}
        empty={
          <EmptyState
            icon={<AuditIcon size={18} />}
            title="No audit events"
            description={
              input.actorId || input.kind || input.from || input.to
                ? "Nothing matches these filters. Clear one to see more."
                : `Changes to members, projects, keys, budgets, rules, webhooks and runs appear here, kept ${retentionDays} days on your plan.`
            }
          />
        }
        loadMoreLabel="Load older events"
      />

      <Sheet open={open !== null} onOpenChange={(o) => (o ? null : setOpen(null))}>
        <SheetContent side="right" className="w-[40rem] max-w-full sm:max-w-[90vw]">
          {open ? <EventDetail event={open} /> : null}
        </SheetContent>
      </Sheet>
    </>
  );
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

const show = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));

/** Before and after, field by field; changed fields first and marked. */
function EventDetail({ event: e }: { event: AuditEvent }) {
  const before = asRecord(e.before);
  const after = asRecord(e.after);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = (k: string) => JSON.stringify(before[k]) !== JSON.stringify(after[k]);
  keys.sort((a, b) => Number(changed(b)) - Number(changed(a)));
  return (
    <>
      <SheetHeader className="border-b border-zinc-100">
        <SheetTitle className="font-mono">{e.action}</SheetTitle>
        <SheetDescription>
          {actorLabel(e)}
          {e.actor.email ? ` (${e.actor.email})` : ""} · {formatDateTime(e.createdAt)}
        </SheetDescription>
      </SheetHeader>
      <div className="space-y-5 p-4">
        <dl className="grid grid-cols-2 gap-3 text-[13px]">
          <div>
            <dt className="text-xs text-zinc-500">Target</dt>
            <dd className="mt-0.5 text-zinc-800">{kindLabel(e.targetType)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs text-zinc-500">Target id</dt>
            <dd className="mt-0.5 truncate font-mono text-[12px] text-zinc-800">{e.targetId}</dd>
          </div>
        </dl>
        {keys.length === 0 ? (
          <p className="text-[13px] text-zinc-500">This event records no field values.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-zinc-200">
            <table className="w-full text-left text-[13px]" aria-label="Before and after">
              <thead className="border-b border-zinc-100 bg-zinc-50/80 text-xs text-zinc-500">
                <tr>
                  <th className="px-3 py-2 font-medium">Field</th>
                  <th className="px-3 py-2 font-medium">Before</th>
                  <th className="px-3 py-2 font-medium">After</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {keys.map((k) => (
                  <tr
                    key={k}
                    data-testid="diff-row"
                    data-field={k}
                    data-changed={changed(k) ? "true" : "false"}
                  >
                    <td className="px-3 py-2 font-mono text-[12px] text-zinc-600">{k}</td>
                    <td
                      className={
                        changed(k)
                          ? "bg-red-50/60 px-3 py-2 break-all text-red-800"
                          : "px-3 py-2 break-all text-zinc-600"
                      }
                    >
                      {show(before[k])}
                    </td>
                    <td
                      className={
                        changed(k)
                          ? "bg-emerald-50/60 px-3 py-2 break-all text-emerald-800"
                          : "px-3 py-2 break-all text-zinc-600"
                      }
                    >
                      {show(after[k])}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </>
  );
}
