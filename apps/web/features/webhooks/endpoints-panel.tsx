"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form";
import { ChevronRightIcon, LockIcon, PlusIcon, WebhooksIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, QueryState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { EndpointForm, errorFields } from "./endpoint-form";
import {
  describeFilters,
  type EndpointSummary,
  type EVENT_TYPES,
  endpointHealth,
  formatDateTime,
  type WebhookSettings,
} from "./format";
import { SecretBox } from "./secret-box";

/** The endpoint list with health, the plan's allowance, and adding an endpoint (secret shown once). */
export function EndpointsPanel({ canManage, planName }: { canManage: boolean; planName: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.webhooks.settings.queryOptions());
  const endpoints = useQuery(trpc.webhooks.listEndpoints.queryOptions({}));
  const projects = useQuery(trpc.project.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ secret: string; url: string } | null>(null);

  const create = useMutation(
    trpc.webhooks.createEndpoint.mutationOptions({
      onSuccess: async (res) => {
        setAdding(false);
        setCreated({ secret: res.secret, url: res.endpoint.url });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.listEndpoints.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.settings.queryKey() }),
        ]);
      },
    }),
  );

  const s = settings.data;
  const atLimit = s ? s.maxEndpoints !== null && s.endpointCount >= s.maxEndpoints : false;

  return (
    <div className="space-y-6">
      {s && !s.breakerWebhooks ? <PlanNotice planName={planName} /> : null}

      {created ? (
        <SecretBox
          title={`Endpoint added: ${created.url}`}
          secret={created.secret}
          note="Copy the signing secret now: this is the only time it is shown in full here (admins can reveal it later on the endpoint's page). Your receiver verifies every message with it."
          onDone={() => setCreated(null)}
        />
      ) : null}

      <Card>
        <CardHeader
          title="Endpoints"
          description={s ? <Allowance settings={s} /> : "Where breaker events are delivered."}
          actions={
            canManage && s?.breakerWebhooks ? (
              <Button size="sm" onClick={() => setAdding(true)} disabled={atLimit || !s}>
                <PlusIcon size={13} /> Add endpoint
              </Button>
            ) : null
          }
        />
        {canManage && atLimit && s?.breakerWebhooks && s.maxEndpoints !== 0 ? (
          <p
            className="border-b border-zinc-100 bg-amber-50/60 px-5 py-2.5 text-xs text-amber-900"
            role="status"
          >
            Your {planName} plan allows {s.maxEndpoints} webhook endpoint{s.maxEndpoints === 1 ? "" : "s"},
            and all are in use. Delete one, or ask the operator of this installation for a larger plan.
          </p>
        ) : null}
        <div className="p-4">
          <QueryState
            query={endpoints}
            empty={
              <EmptyState
                className="py-10"
                icon={<WebhooksIcon size={18} />}
                title="No endpoints yet"
                description={
                  s && !s.breakerWebhooks
                    ? "Endpoints come with a plan that includes breaker webhooks."
                    : canManage
                      ? "Add an endpoint to receive provider incidents, breaker changes and budget threshold alerts, signed per the Standard Webhooks spec."
                      : "An admin can add one. Endpoints receive provider incidents, breaker changes and budget threshold alerts."
                }
              />
            }
          >
            {(list) => <EndpointList list={list} />}
          </QueryState>
        </div>
        {!canManage ? (
          <p className="flex items-center gap-1.5 border-t border-zinc-100 px-5 py-3 text-xs text-zinc-500">
            <LockIcon size={13} /> You have read-only access: URLs show their host only. Admins and owners
            change endpoints.
          </p>
        ) : null}
      </Card>

      {s?.appPortal && canManage ? <AppPortalCard projects={projects.data ?? []} /> : null}

      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Add endpoint</DialogTitle>
            <DialogDescription>
              Breakwater POSTs each event as JSON, signed with the endpoint's secret.
            </DialogDescription>
          </DialogHeader>
          <EndpointForm
            projects={projects.data ?? []}
            projectRequired={s?.backend === "svix"}
            showProject
            submitLabel="Add endpoint"
            pendingLabel="Adding…"
            pending={create.isPending}
            error={create.error?.message}
            fieldErrors={errorFields(create.error)}
            onCancel={() => setAdding(false)}
            onSubmit={(v) =>
              create.mutate({
                url: v.url,
                description: v.description,
                projectId: v.projectId,
                eventTypes: v.eventTypes as (typeof EVENT_TYPES)[number][],
                providers: v.providers,
                format: v.format,
                routingKey: v.routingKey,
              })
            }
          />
        </DialogContent>
      </Dialog>
    </div>
  );
}

function Allowance({ settings: s }: { settings: WebhookSettings }) {
  return (
    <span data-testid="endpoint-allowance">
      {s.maxEndpoints === null
        ? `${s.endpointCount} endpoint${s.endpointCount === 1 ? "" : "s"} (no limit on your plan)`
        : s.maxEndpoints === 0
          ? "Your plan includes no webhook endpoints"
          : `${s.endpointCount} of ${s.maxEndpoints} endpoint${s.maxEndpoints === 1 ? "" : "s"} your plan allows`}
      {s.backend === "svix" ? " · delivered by Svix" : ""}
    </span>
  );
}

function EndpointList({ list }: { list: EndpointSummary[] }) {
  return (
    <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200" aria-label="Webhook endpoints">
      {list.map((e) => {
        const health = endpointHealth(e);
        return (
          <li key={e.id}>
            <Link
              href={`/webhooks/endpoints/${encodeURIComponent(e.id)}`}
              className="flex items-center gap-3 px-4 py-3 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="truncate font-mono text-[12.5px] text-zinc-900">{e.url}</span>
                  <Badge tone={health.tone}>{health.label}</Badge>
                </div>
                <p className="mt-0.5 truncate text-xs text-zinc-500">
                  {e.description ? `${e.description} · ` : ""}
                  {describeFilters(e)}
                </p>
                <p className="mt-1 text-xs text-zinc-500">
                  {e.lastAttempt
                    ? `Last attempt ${formatDateTime(e.lastAttempt.at)} · ${e.lastAttempt.responseStatus ?? "no response"}`
                    : "Nothing sent yet"}
                  {" · 24 h: "}
                  {e.last24h.succeeded} delivered, {e.last24h.failed} failed, {e.last24h.pending} retrying
                  {e.failingSince ? ` · failing since ${formatDateTime(e.failingSince)}` : ""}
                  {!e.enabled && e.disabledReason ? ` · ${e.disabledReason}` : ""}
                </p>
              </div>
              <ChevronRightIcon size={15} className="shrink-0 text-zinc-400" />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Shown instead of a dead form when the plan has no breaker webhooks. */
export function PlanNotice({ planName }: { planName: string }) {
  return (
    <Card className="border-amber-200 bg-amber-50/40">
      <div className="px-5 py-4" data-testid="plan-notice">
        <h2 className="text-[14px] font-semibold text-zinc-900">
          Breaker webhooks are not on the {planName} plan
        </h2>
        <p className="mt-1 text-[13px] leading-relaxed text-zinc-600">
          With them, every time a provider's circuit breaker opens in one of your SDK instances, your
          endpoints get a signed <code className="font-mono text-[12px]">circuit_breaker_opened</code>{" "}
          message, and a <code className="font-mono text-[12px]">circuit_breaker_closed</code> when the
          episode ends — to page on-call, post to Slack or Teams, or fail over elsewhere. Breaker transitions
          are still recorded on the Fleet page.
        </p>
        <p className="mt-2 text-[13px] text-zinc-600">
          Plans are set by the operator of this Breakwater installation: ask them to move your organization to
          a plan with breaker webhooks (Solo or Team).{" "}
          <Link
            href="/webhooks/events"
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            See the events you would receive
          </Link>
          .
        </p>
      </div>
    </Card>
  );
}

function AppPortalCard({ projects }: { projects: { id: string; name: string }[] }) {
  const trpc = useTRPC();
  const [projectId, setProjectId] = useState<string>("");
  const portal = useMutation(trpc.webhooks.portalUrl.mutationOptions());
  return (
    <Card>
      <CardHeader
        title="Svix App Portal"
        description="Svix cloud delivers your webhooks; its App Portal manages a project's endpoints too."
      />
      <div className="flex flex-wrap items-end gap-3 px-5 py-4">
        <div className="w-64 max-w-full">
          <Select value={projectId} onValueChange={setProjectId}>
            <SelectTrigger aria-label="Portal project">
              <SelectValue placeholder="Choose a project" />
            </SelectTrigger>
            <SelectContent>
              {projects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button
          variant="secondary"
          disabled={!projectId || portal.isPending}
          onClick={() => portal.mutate({ projectId })}
        >
          Get portal link
        </Button>
        {portal.data ? (
          <a
            href={portal.data.url}
            target="_blank"
            rel="noreferrer"
            className="text-[13px] font-medium text-brand-700 underline-offset-2 hover:underline"
          >
            Open App Portal ↗
          </a>
        ) : null}
        <div className="w-full">
          <FormError message={portal.error?.message} />
        </div>
      </div>
    </Card>
  );
}
