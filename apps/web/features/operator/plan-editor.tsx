"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useTRPC } from "@/lib/trpc/client";
import {
  errorInfo,
  type FeatureType,
  type FeatureValue,
  formatFeatureValue,
  formatPrice,
  formatWhen,
} from "./format";
import { FieldError } from "./plans-console";

type Draft = { price: string; values: Record<string, string> };

function toDraft(priceCents: number, entitlements: Record<string, FeatureValue>): Draft {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(entitlements)) {
    values[k] = typeof v === "boolean" ? (v ? "on" : "off") : v === null ? "" : String(v);
  }
  return { price: (priceCents / 100).toString(), values };
}

function fromDraft(type: FeatureType, raw: string): FeatureValue | string {
  if (type === "bool") return raw === "on";
  if (type === "limit" && raw.trim() === "") return null;
  const n = Number(raw);
  return raw.trim() === "" || Number.isNaN(n) ? raw : n;
}

/** One plan: edit price and features (a save is a new version, refused if someone saved first), versions and their diff, archive. */
export function PlanEditor({ planSlug }: { planSlug: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const plan = useQuery(trpc.operator.getPlan.queryOptions({ planSlug }));
  const [opened, setOpened] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<number | null>(null);

  const latest = plan.data?.versions[0];
  useEffect(() => {
    // The editor keeps the version it was opened on; a background refetch never rewrites the draft.
    if (latest && opened === null) {
      setOpened(latest.version);
      setDraft(toDraft(latest.priceCents, latest.entitlements));
    }
  }, [latest, opened]);

  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.operator.getPlan.queryKey({ planSlug }) });
  const update = useMutation(
    trpc.operator.updatePlan.mutationOptions({
      onSuccess: async (res) => {
        const v = res.versions[0];
        if (v) {
          setOpened(v.version);
          setDraft(toDraft(v.priceCents, v.entitlements));
          setSaved(v.version);
        }
        queryClient.setQueryData(trpc.operator.getPlan.queryKey({ planSlug }), res);
        await queryClient.invalidateQueries({ queryKey: trpc.operator.listPlans.queryKey() });
      },
    }),
  );
  const archive = useMutation(trpc.operator.setPlanArchived.mutationOptions({ onSuccess: refresh }));
  const { message, fieldErrors } = errorInfo(update.error);

  return (
    <QueryState query={plan} loading={<LoadingState label="Loading plan" rows={6} />} isEmpty={() => false}>
      {(p) => (
        <Tabs defaultValue="edit" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <TabsList>
              <TabsTrigger value="edit">Edit</TabsTrigger>
              <TabsTrigger value="versions">Versions</TabsTrigger>
            </TabsList>
            <div className="flex items-center gap-2 text-[13px] text-zinc-500">
              <span data-testid="plan-subscribers">
                {p.subscriptionCount} subscriber{p.subscriptionCount === 1 ? "" : "s"} ({p.pinnedCount}{" "}
                pinned)
              </span>
              {p.archived ? <Badge tone="amber">Archived</Badge> : null}
              <ConfirmDialog
                trigger={
                  <Button variant={p.archived ? "secondary" : "danger"} size="sm">
                    {p.archived ? "Restore plan" : "Archive plan"}
                  </Button>
                }
                title={p.archived ? `Restore ${p.name}?` : `Archive ${p.name}?`}
                description={
                  p.archived
                    ? "Organizations can be moved to it again."
                    : "No organization can be moved to it any more; the ones on it keep it."
                }
                confirmLabel={p.archived ? "Restore" : "Archive"}
                destructive={!p.archived}
                onConfirm={() => archive.mutate({ planSlug, archived: !p.archived })}
              />
            </div>
          </div>

          <TabsContent value="edit">
            <Card>
              <CardHeader
                title={`Edit ${p.name}`}
                description={`Opened on version ${opened ?? "…"}. Saving creates version ${(opened ?? 0) + 1}.`}
              />
              {draft ? (
                <form
                  className="space-y-5 p-5"
                  onSubmit={(e) => {
                    e.preventDefault();
                    setSaved(null);
                    const entitlements: Record<string, unknown> = {};
                    for (const f of p.features)
                      entitlements[f.key] = fromDraft(f.type, draft.values[f.key] ?? "");
                    const cents = Number(draft.price) * 100;
                    update.mutate({
                      planSlug,
                      expectedVersion: opened ?? 0,
                      priceCents: Number.isNaN(cents)
                        ? (draft.price as unknown as number)
                        : Math.round(cents),
                      entitlements: entitlements as Record<string, FeatureValue>,
                    });
                  }}
                >
                  <div className="max-w-xs">
                    <Label htmlFor="price">Price per month (USD)</Label>
                    <Input
                      id="price"
                      type="number"
                      step="0.01"
                      value={draft.price}
                      onChange={(e) => setDraft({ ...draft, price: e.target.value })}
                    />
                    <FieldError message={fieldErrors.priceCents} />
                  </div>
                  <div className="grid gap-4 sm:grid-cols-2">
                    {p.features.map((f) => (
                      <div key={f.key}>
                        <Label htmlFor={`feature-${f.key}`}>
                          <span className="font-mono">{f.key}</span>{" "}
                          <span className="text-[11px] font-normal text-zinc-400">{f.type}</span>
                        </Label>
                        {f.type === "bool" ? (
                          <Select
                            value={draft.values[f.key] ?? "off"}
                            onValueChange={(v) =>
                              setDraft({ ...draft, values: { ...draft.values, [f.key]: v } })
                            }
                          >
                            <SelectTrigger id={`feature-${f.key}`} aria-label={f.key}>
                              <SelectValue />
                            </SelectTrigger>
                            <SelectContent>
                              <SelectItem value="on">On</SelectItem>
                              <SelectItem value="off">Off</SelectItem>
                            </SelectContent>
                          </Select>
                        ) : (
                          <Input
                            id={`feature-${f.key}`}
                            inputMode="numeric"
                            value={draft.values[f.key] ?? ""}
                            placeholder={f.type === "limit" ? "Unlimited" : undefined}
                            onChange={(e) =>
                              setDraft({ ...draft, values: { ...draft.values, [f.key]: e.target.value } })
                            }
                          />
                        )}
                        <Hint>{f.description}</Hint>
                        <FieldError message={fieldErrors[`entitlements.${f.key}`]} />
                      </div>
                    ))}
                  </div>
                  <FormError message={message} />
                  {saved ? (
                    <p role="status" className="text-[13px] text-emerald-700">
                      Saved as version {saved}.
                    </p>
                  ) : null}
                  <div className="flex gap-2">
                    <Button type="submit" disabled={update.isPending}>
                      {update.isPending ? "Saving…" : "Save new version"}
                    </Button>
                    {update.error ? (
                      <Button
                        variant="secondary"
                        onClick={() => {
                          update.reset();
                          setOpened(null);
                          void refresh();
                        }}
                      >
                        Reload latest
                      </Button>
                    ) : null}
                  </div>
                </form>
              ) : (
                <LoadingState label="Loading plan" />
              )}
            </Card>
          </TabsContent>

          <TabsContent value="versions">
            <VersionsPanel
              planSlug={planSlug}
              versions={p.versions.map((v) => ({
                version: v.version,
                createdAt: v.createdAt,
                priceCents: v.priceCents,
                changeNote: v.changeNote,
              }))}
            />
          </TabsContent>
        </Tabs>
      )}
    </QueryState>
  );
}

function VersionsPanel({
  planSlug,
  versions,
}: {
  planSlug: string;
  versions: { version: number; createdAt: string; priceCents: number; changeNote: string | null }[];
}) {
  const trpc = useTRPC();
  const newest = versions[0]?.version ?? 1;
  const [from, setFrom] = useState(String(Math.max(1, newest - 1)));
  const [to, setTo] = useState(String(newest));
  const diff = useQuery(
    trpc.operator.diffPlanVersions.queryOptions({ planSlug, from: Number(from), to: Number(to) }),
  );
  const featureType = (field: string): FeatureType =>
    field === "max_projects"
      ? "limit"
      : ["failover_tuning", "breaker_webhooks", "budget_webhooks"].includes(field)
        ? "bool"
        : "int";
  return (
    <Card>
      <CardHeader title="Versions" description="Compare any two versions of this plan." />
      <div className="space-y-4 p-5">
        <Table aria-label="Versions">
          <TableHeader>
            <TableRow>
              <TableHead>Version</TableHead>
              <TableHead>Price</TableHead>
              <TableHead>Saved</TableHead>
              <TableHead>Note</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {versions.map((v) => (
              <TableRow key={v.version}>
                <TableCell>v{v.version}</TableCell>
                <TableCell className="tabular-nums">{formatPrice(v.priceCents)}</TableCell>
                <TableCell>{formatWhen(v.createdAt)}</TableCell>
                <TableCell className="text-zinc-500">{v.changeNote ?? "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <div className="flex flex-wrap items-end gap-3">
          {(
            [
              ["From", from, setFrom],
              ["To", to, setTo],
            ] as const
          ).map(([label, value, set]) => (
            <div key={label} className="w-32">
              <Label htmlFor={`diff-${label}`}>{label}</Label>
              <Select value={value} onValueChange={set}>
                <SelectTrigger id={`diff-${label}`} aria-label={`${label} version`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {versions.map((v) => (
                    <SelectItem key={v.version} value={String(v.version)}>
                      v{v.version}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          ))}
        </div>
        <QueryState
          query={diff}
          loading={<LoadingState label="Comparing" rows={2} />}
          empty={
            <EmptyState
              icon={<span className="text-xs">=</span>}
              title="No differences"
              description="These two versions grant the same price and features."
            />
          }
        >
          {(rows) => (
            <Table aria-label="Differences">
              <TableHeader>
                <TableRow>
                  <TableHead>Field</TableHead>
                  <TableHead>v{from}</TableHead>
                  <TableHead>v{to}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((d) => (
                  <TableRow key={d.field}>
                    <TableCell className="font-mono text-[12px]">{d.field}</TableCell>
                    <TableCell>
                      {d.field === "priceCents"
                        ? formatPrice(Number(d.before))
                        : formatFeatureValue(featureType(d.field), d.before)}
                    </TableCell>
                    <TableCell>
                      {d.field === "priceCents"
                        ? formatPrice(Number(d.after))
                        : formatFeatureValue(featureType(d.field), d.after)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </div>
    </Card>
  );
}
