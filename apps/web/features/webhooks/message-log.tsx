"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { ColumnDef } from "@/components/ui/data-table";
import { FormError } from "@/components/ui/form";
import { ReplayIcon, WebhooksIcon } from "@/components/ui/icons";
import { FILTER_ALL, FilterSelect, infiniteRows, KeysetTable } from "@/components/ui/keyset-table";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { AttemptsTable } from "./attempts-table";
import {
  DELIVERY_STATUS,
  EVENT_TYPES,
  formatDateTime,
  MESSAGE_STATUS,
  type MessageLogItem,
  STATUS_FILTERS,
  type WebhookMessage,
} from "./format";

type StatusFilter = (typeof STATUS_FILTERS)[number]["value"];

/** The message log: newest first, filtered, paged by key; a message opens in a side sheet. */
export function MessageLog({
  canManage,
  initialEndpoint,
  initialMessage,
}: {
  canManage: boolean;
  initialEndpoint?: string;
  initialMessage?: string;
}) {
  const trpc = useTRPC();
  const [eventType, setEventType] = useState(FILTER_ALL);
  const [endpointId, setEndpointId] = useState(initialEndpoint ?? FILTER_ALL);
  const [status, setStatus] = useState(FILTER_ALL);
  const [projectId, setProjectId] = useState(FILTER_ALL);
  const [open, setOpen] = useState<string | null>(initialMessage ?? null);
  const endpoints = useQuery(trpc.webhooks.listEndpoints.queryOptions({}));
  const projects = useQuery(trpc.project.list.queryOptions());
  const projectName = (id: string) => projects.data?.find((p) => p.id === id)?.name ?? id;

  const input = {
    limit: 25,
    eventType: eventType === FILTER_ALL ? undefined : eventType,
    endpointId: endpointId === FILTER_ALL ? undefined : endpointId,
    status: status === FILTER_ALL ? undefined : (status as StatusFilter),
    projectId: projectId === FILTER_ALL ? undefined : projectId,
  };
  const log = useInfiniteQuery(
    trpc.webhooks.listMessages.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      refetchInterval: 5_000,
    }),
  );
  const columns: ColumnDef<MessageLogItem>[] = [
    {
      header: "Time",
      cell: ({ row }) => formatDateTime(row.original.createdAt),
      meta: { cellClassName: "whitespace-nowrap text-zinc-600" },
    },
    {
      header: "Event type",
      cell: ({ row: { original: m } }) => (
        <>
          {m.type}
          {m.isTest ? (
            <Badge tone="brand" className="ml-1.5 font-sans">
              test
            </Badge>
          ) : null}
        </>
      ),
      meta: { cellClassName: "font-mono text-[12px] whitespace-nowrap text-zinc-900" },
    },
    {
      header: "Project",
      cell: ({ row }) => projectName(row.original.projectId),
      meta: { cellClassName: "whitespace-nowrap text-zinc-600" },
    },
    {
      header: "Status",
      cell: ({ row: { original: m } }) => (
        <Badge tone={MESSAGE_STATUS[m.status].tone}>{MESSAGE_STATUS[m.status].label}</Badge>
      ),
    },
    {
      header: "Attempts",
      cell: ({ row }) => row.original.deliveries.reduce((n, d) => n + d.attempts.length, 0),
      meta: { cellClassName: "text-zinc-600 tabular-nums" },
    },
    {
      id: "open",
      header: () => <span className="sr-only">Open</span>,
      cell: ({ row: { original: m } }) => (
        <Button variant="secondary" size="sm" onClick={() => setOpen(m.id)} aria-label={`Open ${m.id}`}>
          Open
        </Button>
      ),
      meta: { cellClassName: "text-right" },
    },
  ];

  return (
    <>
      <KeysetTable
        query={infiniteRows(log, (page) => page.items)}
        columns={columns}
        label="Messages"
        getRowId={(m) => m.id}
        rowAttributes={(m) => ({ "data-testid": "message-row", "data-message-id": m.id })}
        toolbar={
          <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <legend className="sr-only">Filters</legend>
            <FilterSelect
              label="Event type"
              value={eventType}
              onChange={setEventType}
              options={EVENT_TYPES.map((t) => ({ value: t, label: t }))}
            />
            <FilterSelect
              label="Endpoint"
              value={endpointId}
              onChange={setEndpointId}
              options={(endpoints.data ?? []).map((e) => ({ value: e.id, label: e.url }))}
            />
            <FilterSelect
              label="Status"
              value={status}
              onChange={setStatus}
              options={STATUS_FILTERS.map((s) => ({ value: s.value, label: s.label }))}
            />
            <FilterSelect
              label="Project"
              value={projectId}
              onChange={setProjectId}
              options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            />
          </fieldset>
        }
        loading={<LoadingState rows={5} />}
        empty={
          <EmptyState
            icon={<WebhooksIcon size={18} />}
            title="No messages"
            description="Breaker events and test events appear here, newest first, with every delivery attempt."
          />
        }
        loadMoreLabel="Load older messages"
      />

      <Sheet open={open !== null} onOpenChange={(o) => (o ? null : setOpen(null))}>
        <SheetContent side="right" className="w-[44rem] max-w-full sm:max-w-[90vw]">
          {open ? (
            <MessageView
              eventId={open}
              canManage={canManage}
              endpoints={endpoints.data ?? []}
              projectName={projectName}
            />
          ) : null}
        </SheetContent>
      </Sheet>
    </>
  );
}

function MessageView({
  eventId,
  canManage,
  endpoints,
  projectName,
}: {
  eventId: string;
  canManage: boolean;
  endpoints: { id: string; url: string; enabled: boolean }[];
  projectName: (id: string) => string;
}) {
  const trpc = useTRPC();
  const message = useQuery({ ...trpc.webhooks.getMessage.queryOptions({ eventId }), refetchInterval: 3_000 });
  return (
    <>
      <SheetHeader className="border-b border-zinc-100">
        <SheetTitle className="font-mono">{message.data?.type ?? "Message"}</SheetTitle>
        <SheetDescription className="flex flex-wrap items-center gap-2">
          <span>webhook-id</span>
          <code className="font-mono text-[12px] text-zinc-700" data-testid="webhook-id">
            {eventId}
          </code>
          <CopyButton value={eventId} label="Copy id" className="h-6" />
        </SheetDescription>
      </SheetHeader>
      <div className="space-y-5 p-4">
        <QueryState query={message} loading={<LoadingState rows={4} />}>
          {(m) => <MessageBody m={m} canManage={canManage} endpoints={endpoints} projectName={projectName} />}
        </QueryState>
      </div>
    </>
  );
}

function MessageBody({
  m,
  canManage,
  endpoints,
  projectName,
}: {
  m: WebhookMessage;
  canManage: boolean;
  endpoints: { id: string; url: string; enabled: boolean }[];
  projectName: (id: string) => string;
}) {
  const payload = JSON.stringify(m.payload, null, 2);
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 text-[13px]">
        <div>
          <dt className="text-xs text-zinc-500">Status</dt>
          <dd className="mt-0.5" data-testid="message-status">
            <Badge tone={MESSAGE_STATUS[m.status].tone}>{MESSAGE_STATUS[m.status].label}</Badge>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Created</dt>
          <dd className="mt-0.5 text-zinc-800">{formatDateTime(m.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Project</dt>
          <dd className="mt-0.5 text-zinc-800">{projectName(m.projectId)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Next retry</dt>
          <dd className="mt-0.5 text-zinc-800">{m.nextAttemptAt ? formatDateTime(m.nextAttemptAt) : "—"}</dd>
        </div>
        {!m.deliverable ? (
          <p className="col-span-2 text-xs text-zinc-500">
            The plan did not include breaker webhooks when this happened, so it was recorded but not sent. An
            admin can still replay it to an endpoint.
          </p>
        ) : null}
      </dl>

      <section aria-label="Deliveries" className="space-y-4">
        <h3 className="text-[13px] font-semibold text-zinc-900">Deliveries</h3>
        {m.deliveries.length === 0 ? (
          <p className="text-xs text-zinc-500">Not sent to any endpoint.</p>
        ) : null}
        {m.deliveries.map((d) => (
          <section
            key={d.id}
            className="rounded-lg border border-zinc-200"
            data-testid="delivery"
            aria-label={`Delivery to ${d.endpointUrl}`}
          >
            <div className="flex flex-wrap items-center gap-2 border-b border-zinc-100 px-3 py-2">
              <span className="min-w-0 flex-1 truncate font-mono text-[12px] text-zinc-800">
                {d.endpointUrl}
              </span>
              <Badge tone={DELIVERY_STATUS[d.status]?.tone ?? "neutral"}>
                {DELIVERY_STATUS[d.status]?.label ?? d.status}
              </Badge>
              {d.nextAttemptAt ? (
                <span className="text-xs text-zinc-500">next retry {formatDateTime(d.nextAttemptAt)}</span>
              ) : null}
              {canManage ? <ReplayButton eventId={m.id} endpointId={d.endpointId} /> : null}
            </div>
            <div className="px-1">
              <AttemptsTable attempts={d.attempts} label={`Attempts to ${d.endpointUrl}`} />
            </div>
          </section>
        ))}
        {canManage ? (
          <ReplayElsewhere
            eventId={m.id}
            endpoints={endpoints}
            sentTo={m.deliveries.map((d) => d.endpointId)}
          />
        ) : null}
      </section>

      <section aria-label="Payload">
        <div className="mb-1.5 flex items-center justify-between">
          <h3 className="text-[13px] font-semibold text-zinc-900">Payload</h3>
          <CopyButton value={payload} label="Copy payload" />
        </div>
        <pre className="max-h-96 overflow-auto rounded-md bg-zinc-900 p-3 font-mono text-[11.5px] leading-relaxed text-zinc-100">
          {payload}
        </pre>
      </section>
    </>
  );
}

function useReplay(eventId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.webhooks.replay.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.getMessage.queryKey({ eventId }) }),
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.listMessages.queryKey() }),
        ]),
    }),
  );
}

function ReplayResult({ replay }: { replay: ReturnType<typeof useReplay> }) {
  if (replay.error) return <FormError message={replay.error.message} />;
  if (!replay.data) return null;
  return (
    <span className="text-xs text-zinc-600" role="status">
      Replayed: {replay.data.success ? "accepted" : "failed"} · {replay.data.statusCode ?? "no response"} ·{" "}
      {replay.data.latencyMs} ms
    </span>
  );
}

function ReplayButton({ eventId, endpointId }: { eventId: string; endpointId: string }) {
  const replay = useReplay(eventId);
  return (
    <span className="flex items-center gap-2">
      <ReplayResult replay={replay} />
      <Button
        variant="secondary"
        size="sm"
        disabled={replay.isPending}
        onClick={() => replay.mutate({ eventId, endpointId })}
      >
        <ReplayIcon size={12} /> {replay.isPending ? "Replaying…" : "Replay"}
      </Button>
    </span>
  );
}

function ReplayElsewhere({
  eventId,
  endpoints,
  sentTo,
}: {
  eventId: string;
  endpoints: { id: string; url: string; enabled: boolean }[];
  sentTo: string[];
}) {
  const replay = useReplay(eventId);
  const [target, setTarget] = useState("");
  const others = endpoints.filter((e) => !sentTo.includes(e.id) && e.enabled);
  if (others.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed border-zinc-300 p-3">
      <span className="text-xs text-zinc-600">Replay to another endpoint (same webhook-id):</span>
      <div className="w-56 max-w-full">
        <Select value={target} onValueChange={setTarget}>
          <SelectTrigger aria-label="Replay endpoint" className="h-8">
            <SelectValue placeholder="Choose an endpoint" />
          </SelectTrigger>
          <SelectContent>
            {others.map((e) => (
              <SelectItem key={e.id} value={e.id}>
                {e.url}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Button
        variant="secondary"
        size="sm"
        disabled={!target || replay.isPending}
        onClick={() => replay.mutate({ eventId, endpointId: target })}
      >
        Replay
      </Button>
      <ReplayResult replay={replay} />
    </div>
  );
}
