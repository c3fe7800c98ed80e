"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ColumnDef } from "@/components/ui/data-table";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { FormError, Input, Label } from "@/components/ui/form";
import { BuildingIcon } from "@/components/ui/icons";
import { infiniteRows, KeysetTable, SearchField } from "@/components/ui/keyset-table";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, type FeatureType, formatFeatureValue, formatWhen } from "./format";
import { FieldError } from "./plans-console";

const FEATURE_TYPES: Record<string, FeatureType> = {
  failover_tuning: "bool",
  breaker_webhooks: "bool",
  budget_webhooks: "bool",
  max_projects: "limit",
  included_requests_month: "int",
  retention_days: "int",
  max_webhook_endpoints: "int",
  audit_log_days: "int",
  admission_rate_per_second: "int",
};

type Org = {
  id: string;
  name: string;
  slug: string;
  plan: { slug: string; name: string; version: number; pinnedVersion: number | null } | null;
  projects: { id: string; name: string }[];
  memberCount: number;
  requestsThisMonth: number;
  includedRequestsMonth: number | null;
  overrideCount: number;
};

const columns: ColumnDef<Org>[] = [
  {
    header: "Organization",
    cell: ({ row: { original: o } }) => (
      <>
        <span className="font-medium text-zinc-900">{o.name}</span>{" "}
        <span className="font-mono text-[11px] text-zinc-400">{o.slug}</span>
      </>
    ),
  },
  {
    header: "Plan",
    cell: ({ row: { original: o } }) => (
      <>
        {o.plan ? `${o.plan.name} v${o.plan.version}` : "—"}{" "}
        {o.plan?.pinnedVersion ? <Badge tone="amber">Pinned</Badge> : null}
        {o.overrideCount ? <Badge tone="brand">{o.overrideCount} overrides</Badge> : null}
      </>
    ),
  },
  {
    header: "Projects",
    cell: ({ row: { original: o } }) => (o.projects.length ? o.projects.map((p) => p.name).join(", ") : "—"),
    meta: { cellClassName: "max-w-48 truncate" },
  },
  {
    header: "Members",
    cell: ({ row }) => row.original.memberCount,
    meta: { cellClassName: "tabular-nums" },
  },
  {
    header: "Requests this month",
    cell: ({ row: { original: o } }) => (
      <>
        {o.requestsThisMonth.toLocaleString("en-US")} / {formatFeatureValue("int", o.includedRequestsMonth)}
      </>
    ),
    meta: { cellClassName: "tabular-nums" },
  },
  {
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) => <ManageOrganization org={row.original} />,
  },
];

/**
 * Organizations with their plan, projects, members and this month's requests against the quota:
 * searched by name or slug, 25 at a time (keyset pages, "Show more" appends the next one).
 */
export function OrganizationsConsole() {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const pages = useInfiniteQuery(
    trpc.operator.listOrganizations.infiniteQueryOptions(
      { search: deferred, limit: 25 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  return (
    <Card>
      <CardHeader title="Organizations" description="Change a plan, pin a version or override a feature." />
      <KeysetTable
        inset
        query={infiniteRows(pages, (page): Org[] => page.items)}
        columns={columns}
        label="Organizations"
        getRowId={(o) => o.id}
        rowAttributes={(o) => ({ "data-testid": `org-row-${o.slug}` })}
        toolbar={
          <SearchField
            id="org-search"
            label="Search organizations"
            placeholder="Name or slug"
            value={search}
            onChange={setSearch}
          />
        }
        loading={<LoadingState label="Loading organizations" rows={4} />}
        empty={
          <EmptyState
            icon={<BuildingIcon size={18} />}
            title={deferred ? "No organization matches" : "No organizations yet"}
            description={
              deferred
                ? "Nothing has that text in its name or slug."
                : "Organizations appear here once someone creates one."
            }
          />
        }
        loadMoreLabel="Show more organizations"
      />
    </Card>
  );
}

function ManageOrganization({ org }: { org: Org }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Manage ${org.name}`}>
          Manage
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{org.name}</DialogTitle>
          <DialogDescription>
            Plan, pinned version and entitlement overrides of this organization.
          </DialogDescription>
        </DialogHeader>
        <PlanSection org={org} />
        <OverridesSection org={org} />
      </DialogContent>
    </Dialog>
  );
}

function PlanSection({ org }: { org: Org }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const plans = useQuery(trpc.operator.listPlans.queryOptions());
  const currentPlan = org.plan?.slug ?? "";
  const planDetail = useQuery({
    ...trpc.operator.getPlan.queryOptions({ planSlug: currentPlan }),
    enabled: currentPlan !== "",
  });
  const [planSlug, setPlanSlug] = useState(currentPlan);
  const [pin, setPin] = useState(org.plan?.pinnedVersion ? String(org.plan.pinnedVersion) : "latest");
  const done = () => queryClient.invalidateQueries({ queryKey: trpc.operator.pathKey() });
  const change = useMutation(trpc.operator.setOrganizationPlan.mutationOptions({ onSuccess: done }));
  const pinning = useMutation(trpc.operator.pinSubscription.mutationOptions({ onSuccess: done }));
  return (
    <section aria-label="Plan" className="space-y-3 rounded-md border border-zinc-200 p-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Label htmlFor="org-plan">Plan</Label>
          <Select value={planSlug} onValueChange={setPlanSlug}>
            <SelectTrigger id="org-plan" aria-label="Plan">
              <SelectValue placeholder="Choose a plan" />
            </SelectTrigger>
            <SelectContent>
              {(plans.data ?? [])
                .filter((p) => !p.archived || p.slug === currentPlan)
                .map((p) => (
                  <SelectItem key={p.slug} value={p.slug}>
                    {p.name}
                  </SelectItem>
                ))}
            </SelectContent>
          </Select>
        </div>
        <Button
          disabled={change.isPending || planSlug === currentPlan || planSlug === ""}
          onClick={() => change.mutate({ organization: org.id, planSlug })}
        >
          Change plan
        </Button>
      </div>
      <FormError message={errorInfo(change.error).message} />
      {change.isSuccess ? (
        <p role="status" className="text-[13px] text-emerald-700">
          Now on {change.data.planName} v{change.data.effectiveVersion}.
        </p>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Label htmlFor="org-pin">Version</Label>
          <Select value={pin} onValueChange={setPin}>
            <SelectTrigger id="org-pin" aria-label="Version">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="latest">Follow the latest</SelectItem>
              {(planDetail.data?.versions ?? []).map((v) => (
                <SelectItem key={v.version} value={String(v.version)}>
                  Pin to v{v.version}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button
          variant="secondary"
          disabled={pinning.isPending}
          onClick={() =>
            pinning.mutate({ organization: org.id, version: pin === "latest" ? null : Number(pin) })
          }
        >
          Save version
        </Button>
      </div>
      <FormError message={errorInfo(pinning.error).message} />
      {pinning.isSuccess ? (
        <p role="status" className="text-[13px] text-emerald-700">
          {pinning.data.pinnedVersion
            ? `Pinned to v${pinning.data.pinnedVersion}.`
            : "Follows the latest version."}
        </p>
      ) : null}
    </section>
  );
}

function OverridesSection({ org }: { org: Org }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overrides = useQuery(trpc.operator.listOverrides.queryOptions({ organization: org.id }));
  const [scope, setScope] = useState("organization");
  const [featureKey, setFeatureKey] = useState("failover_tuning");
  const [value, setValue] = useState("on");
  const [reason, setReason] = useState("");
  const [expires, setExpires] = useState("");
  const done = () => queryClient.invalidateQueries({ queryKey: trpc.operator.pathKey() });
  const set = useMutation(
    trpc.operator.setOverride.mutationOptions({
      onSuccess: async () => {
        setReason("");
        setExpires("");
        await done();
      },
    }),
  );
  const clear = useMutation(trpc.operator.clearOverride.mutationOptions({ onSuccess: done }));
  const type = FEATURE_TYPES[featureKey] ?? "int";
  const projectName = (id: string | null) => org.projects.find((p) => p.id === id)?.name ?? id;
  const { message, fieldErrors } = errorInfo(set.error);
  return (
    <section aria-label="Overrides" className="space-y-3 rounded-md border border-zinc-200 p-4">
      <h3 className="text-[13px] font-semibold text-zinc-900">Overrides</h3>
      <QueryState
        query={overrides}
        loading={<LoadingState label="Loading overrides" rows={2} />}
        empty={<p className="text-[13px] text-zinc-500">No overrides: the plan decides every feature.</p>}
      >
        {(rows) => (
          <Table aria-label="Overrides">
            <TableHeader>
              <TableRow>
                <TableHead>Scope</TableHead>
                <TableHead>Feature</TableHead>
                <TableHead>Value</TableHead>
                <TableHead>Reason</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((o) => (
                <TableRow key={o.id}>
                  <TableCell>
                    {o.projectId ? `Project ${projectName(o.projectId)}` : "Organization"}
                  </TableCell>
                  <TableCell className="font-mono text-[12px]">{o.featureKey}</TableCell>
                  <TableCell>{formatFeatureValue(FEATURE_TYPES[o.featureKey] ?? "int", o.value)}</TableCell>
                  <TableCell>{o.reason}</TableCell>
                  <TableCell>
                    {o.expiresAt ? formatWhen(o.expiresAt) : "Never"}
                    {o.expiresAt && new Date(o.expiresAt) <= new Date() ? (
                      <Badge tone="neutral">Expired</Badge>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Clear ${o.featureKey} override`}
                      onClick={() =>
                        clear.mutate(
                          o.projectId
                            ? { projectId: o.projectId, featureKey: o.featureKey }
                            : { organization: org.id, featureKey: o.featureKey },
                        )
                      }
                    >
                      Clear
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed =
            type === "bool" ? value === "on" : type === "limit" && value.trim() === "" ? null : Number(value);
          set.mutate({
            ...(scope === "organization" ? { organization: org.id } : { projectId: scope }),
            featureKey,
            value: parsed as boolean | number | null,
            reason,
            expiresAt: expires ? new Date(expires) : null,
          });
        }}
      >
        <div>
          <Label htmlFor="ovr-scope">Applies to</Label>
          <Select value={scope} onValueChange={setScope}>
            <SelectTrigger id="ovr-scope" aria-label="Applies to">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="organization">The whole organization</SelectItem>
              {org.projects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  Project {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div>
          <Label htmlFor="ovr-feature">Feature</Label>
          <Select
            value={featureKey}
            onValueChange={(k) => {
              setFeatureKey(k);
              setValue(FEATURE_TYPES[k] === "bool" ? "on" : "");
            }}
          >
            <SelectTrigger id="ovr-feature" aria-label="Feature">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {Object.keys(FEATURE_TYPES).map((k) => (
                <SelectItem key={k} value={k}>
                  {k}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FieldError message={fieldErrors.featureKey} />
        </div>
        <div>
          <Label htmlFor="ovr-value">Value</Label>
          {type === "bool" ? (
            <Select value={value} onValueChange={setValue}>
              <SelectTrigger id="ovr-value" aria-label="Value">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="on">On</SelectItem>
                <SelectItem value="off">Off</SelectItem>
              </SelectContent>
            </Select>
          ) : (
            <Input
              id="ovr-value"
              inputMode="numeric"
              value={value}
              placeholder={type === "limit" ? "Unlimited" : undefined}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
          <FieldError message={fieldErrors.value} />
        </div>
        <div>
          <Label htmlFor="ovr-expires">Expires (optional)</Label>
          <Input
            id="ovr-expires"
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
          <FieldError message={fieldErrors.expiresAt} />
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor="ovr-reason">Reason</Label>
          <Input id="ovr-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
          <FieldError message={fieldErrors.reason} />
        </div>
        <div className="sm:col-span-2 space-y-2">
          <FormError message={message} />
          <Button type="submit" disabled={set.isPending}>
            {set.isPending ? "Saving…" : "Set override"}
          </Button>
        </div>
      </form>
    </section>
  );
}
