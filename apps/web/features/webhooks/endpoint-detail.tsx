"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { FormError } from "@/components/ui/form";
import { EyeIcon, LockIcon, RefreshIcon, SendIcon, TrashIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { LoadingState, QueryState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { AttemptsTable } from "./attempts-table";
import { EndpointForm, errorFields } from "./endpoint-form";
import { describeFilters, type Endpoint, EVENT_TYPES, formatDateTime } from "./format";
import { SecretBox } from "./secret-box";

type EventType = (typeof EVENT_TYPES)[number];

/** One endpoint: health, filters, secret (rotate / reveal), test event, enable/disable, delete. */
export function EndpointDetail({ endpointId, canManage }: { endpointId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const endpoint = useQuery(trpc.webhooks.getEndpoint.queryOptions({ endpointId }));
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.webhooks.getEndpoint.queryKey({ endpointId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.webhooks.listEndpoints.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.webhooks.listMessages.queryKey() }),
    ]);

  const update = useMutation(trpc.webhooks.updateEndpoint.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(
    trpc.webhooks.deleteEndpoint.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.listEndpoints.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.settings.queryKey() });
        router.push("/webhooks");
      },
    }),
  );

  return (
    <QueryState query={endpoint} loading={<LoadingState rows={4} />}>
      {(e) => (
        <div className="space-y-6">
          <Overview endpoint={e} />
          {canManage ? <SecretCard endpointId={endpointId} /> : null}
          {canManage ? <TestCard endpointId={endpointId} /> : null}
          <Card>
            <CardHeader
              title="Settings"
              description={
                canManage ? "Change the URL or which events this endpoint receives." : describeFilters(e)
              }
            />
            <div className="px-5 py-4">
              {canManage ? (
                <EndpointForm
                  key={e.updatedAt}
                  initial={{
                    url: e.url,
                    description: e.description,
                    eventTypes: e.eventTypes,
                    providers: e.providers,
                    format: e.format,
                  }}
                  routingKeyHint={e.routingKeyHint}
                  projects={[]}
                  projectRequired={false}
                  showProject={false}
                  submitLabel="Save changes"
                  pendingLabel="Saving…"
                  pending={update.isPending}
                  error={update.error?.message}
                  fieldErrors={errorFields(update.error)}
                  onSubmit={(v) =>
                    update.mutate({
                      endpointId,
                      url: v.url,
                      description: v.description,
                      eventTypes: v.eventTypes as EventType[],
                      providers: v.providers,
                      format: v.format,
                      routingKey: v.routingKey,
                    })
                  }
                />
              ) : (
                <p className="flex items-center gap-1.5 text-xs text-zinc-500">
                  <LockIcon size={13} /> Read-only: admins and owners change endpoints.
                </p>
              )}
            </div>
          </Card>
          {canManage ? (
            <Card>
              <CardHeader
                title={e.enabled ? "Disable or delete" : "Enable or delete"}
                description={
                  e.enabled
                    ? "A disabled endpoint gets no new messages; replays and test events still work."
                    : "Enabling it again forgets its failure streak."
                }
              />
              <div className="flex flex-wrap gap-2 px-5 py-4">
                <Button
                  variant="secondary"
                  disabled={update.isPending}
                  onClick={() => update.mutate({ endpointId, enabled: !e.enabled })}
                >
                  {e.enabled ? "Disable endpoint" : "Enable endpoint"}
                </Button>
                <ConfirmDialog
                  title="Delete this endpoint?"
                  description={`${e.url} stops receiving messages at once, and its delivery history is deleted with it. This cannot be undone.`}
                  confirmLabel="Delete endpoint"
                  onConfirm={() => remove.mutate({ endpointId })}
                  trigger={
                    <Button variant="danger" disabled={remove.isPending}>
                      <TrashIcon size={13} /> Delete endpoint
                    </Button>
                  }
                />
                <div className="w-full">
                  <FormError message={remove.error?.message} />
                </div>
              </div>
            </Card>
          ) : null}
        </div>
      )}
    </QueryState>
  );
}

function Overview({ endpoint: e }: { endpoint: Endpoint }) {
  return (
    <Card>
      <dl className="grid gap-4 px-5 py-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <dt className="text-xs text-zinc-500">URL</dt>
          <dd
            className="mt-0.5 flex items-center gap-2 font-mono text-[13px] break-all text-zinc-900"
            data-testid="endpoint-url"
          >
            {e.url}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">State</dt>
          <dd className="mt-0.5 flex flex-wrap items-center gap-2 text-[13px]">
            {e.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>}
            {e.failingSince ? <Badge tone="red">Failing since {formatDateTime(e.failingSince)}</Badge> : null}
            {!e.enabled && e.disabledReason ? (
              <span className="text-zinc-500">{e.disabledReason}</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Receives</dt>
          <dd className="mt-0.5 text-[13px] text-zinc-800">{describeFilters(e)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Project</dt>
          <dd className="mt-0.5 font-mono text-[12px] text-zinc-800">{e.projectId ?? "All projects"}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Secret</dt>
          <dd className="mt-0.5 font-mono text-[12px] text-zinc-800">{e.secretPrefix}</dd>
        </div>
        <div className="sm:col-span-2">
          <Link
            href={`/webhooks/messages?endpoint=${encodeURIComponent(e.id)}`}
            className="text-[13px] font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            Messages sent to this endpoint →
          </Link>
        </div>
      </dl>
    </Card>
  );
}

function SecretCard({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; until: string } | null>(null);
  const [revealError, setRevealError] = useState<string | null>(null);
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (res) => {
        setRevealed(null);
        setRotated({ secret: res.secret, until: res.previousValidUntil });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.getEndpoint.queryKey({ endpointId }) });
      },
    }),
  );
  return (
    <Card>
      <CardHeader
        title="Signing secret"
        description="Receivers verify each message's webhook-signature with it."
        actions={
          <>
            <Button
              variant="secondary"
              size="sm"
              onClick={async () => {
                setRevealError(null);
                try {
                  const res = await queryClient.fetchQuery({
                    ...trpc.webhooks.revealSecret.queryOptions({ endpointId }),
                    staleTime: 0,
                    gcTime: 0,
                  });
                  setRevealed(res.secret);
                } catch (err) {
                  setRevealError((err as Error).message);
                }
              }}
            >
              <EyeIcon size={13} /> Reveal secret
            </Button>
            <ConfirmDialog
              title="Rotate the signing secret?"
              description="A new secret is made now. For the next 24 hours every message is signed with both the old and the new secret, so your receiver keeps verifying while you switch it over; after that only the new one signs."
              confirmLabel="Rotate secret"
              destructive={false}
              onConfirm={() => rotate.mutate({ endpointId })}
              trigger={
                <Button variant="secondary" size="sm" disabled={rotate.isPending}>
                  <RefreshIcon size={13} /> Rotate secret
                </Button>
              }
            />
          </>
        }
      />
      <div className="space-y-3 px-5 py-4">
        <p className="text-xs text-zinc-500">
          Rotating keeps the old secret signing for 24 hours beside the new one, so no message fails
          verification while you update your receiver.
        </p>
        {rotated ? (
          <SecretBox
            title="New signing secret"
            secret={rotated.secret}
            note={`The old secret keeps signing until ${formatDateTime(rotated.until)} (24 h). Update your receiver before then.`}
            onDone={() => setRotated(null)}
          />
        ) : null}
        {revealed ? (
          <div className="flex items-center gap-2" data-testid="revealed-secret">
            <code className="min-w-0 flex-1 truncate rounded-md border border-zinc-200 bg-zinc-50 px-3 py-1.5 font-mono text-[12px]">
              {revealed}
            </code>
            <CopyButton value={revealed} label="Copy secret" />
            <Button variant="ghost" size="sm" onClick={() => setRevealed(null)}>
              Hide
            </Button>
          </div>
        ) : null}
        <FormError message={revealError ?? rotate.error?.message} />
      </div>
    </Card>
  );
}

function TestCard({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [eventType, setEventType] = useState<EventType>("circuit_breaker_opened");
  const send = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.listMessages.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.listEndpoints.queryKey() }),
        ]),
    }),
  );
  const eventId = send.data?.eventId;
  const message = useQuery({
    ...trpc.webhooks.getMessage.queryOptions({ eventId: eventId ?? "" }),
    enabled: Boolean(eventId),
  });
  const attempts = message.data?.deliveries.flatMap((d) => d.attempts) ?? [];
  return (
    <Card>
      <CardHeader
        title="Send a test event"
        description="A sample payload, signed like any message, sent now."
      />
      <div className="space-y-4 px-5 py-4">
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-64 max-w-full">
            <Select value={eventType} onValueChange={(v) => setEventType(v as EventType)}>
              <SelectTrigger aria-label="Test event type">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {EVENT_TYPES.map((t) => (
                  <SelectItem key={t} value={t}>
                    {t}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button onClick={() => send.mutate({ endpointId, eventType })} disabled={send.isPending}>
            <SendIcon size={13} /> {send.isPending ? "Sending…" : "Send test event"}
          </Button>
        </div>
        <FormError message={send.error?.message} />
        {send.data ? (
          <section aria-label="Test result" data-testid="test-result" className="space-y-2">
            <p className="flex flex-wrap items-center gap-2 text-[13px]">
              {send.data.success ? <Badge tone="green">Accepted</Badge> : <Badge tone="red">Failed</Badge>}
              <span className="text-zinc-600">
                Status code <span className="font-mono">{send.data.statusCode ?? "—"}</span> ·{" "}
                {send.data.latencyMs} ms
                {send.data.error ? ` · ${send.data.error}` : ""}
              </span>
              <Link
                href={`/webhooks/messages?message=${encodeURIComponent(send.data.eventId)}`}
                className="text-[13px] font-medium text-brand-700 underline-offset-2 hover:underline"
              >
                Open in the message log
              </Link>
            </p>
            {message.data ? <AttemptsTable attempts={attempts} label="Test attempt" /> : null}
          </section>
        ) : null}
      </div>
    </Card>
  );
}
