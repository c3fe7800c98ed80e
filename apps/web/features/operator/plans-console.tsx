"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { FormError, Input, Label } from "@/components/ui/form";
import { PlansIcon, PlusIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, formatFeatureValue, formatPrice } from "./format";

/** Every plan with its current version, price, headline features and subscriber count. */
export function PlansConsole() {
  const trpc = useTRPC();
  const plans = useQuery(trpc.operator.listPlans.queryOptions());
  return (
    <Card>
      <CardHeader
        title="Plans"
        description="Editing a plan saves a new version; organizations follow the latest unless pinned."
        actions={<CreatePlanDialog />}
      />
      <div className="p-2">
        <QueryState
          query={plans}
          loading={<LoadingState label="Loading plans" rows={4} />}
          empty={
            <EmptyState
              icon={<PlansIcon size={18} />}
              title="No plans yet"
              description="Create the first plan; organizations need one to subscribe to."
            />
          }
        >
          {(rows) => (
            <Table aria-label="Plans">
              <TableHeader>
                <TableRow>
                  <TableHead>Plan</TableHead>
                  <TableHead>Version</TableHead>
                  <TableHead>Price / month</TableHead>
                  <TableHead>Failover tuning</TableHead>
                  <TableHead>Requests / month</TableHead>
                  <TableHead>Subscribers</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((p) => (
                  <TableRow key={p.id} data-testid={`plan-row-${p.slug}`}>
                    <TableCell>
                      <Link href={`/plans/${p.slug}`} className="font-medium text-zinc-900 hover:underline">
                        {p.name}
                      </Link>{" "}
                      <span className="font-mono text-[11px] text-zinc-400">{p.slug}</span>{" "}
                      {p.archived ? <Badge tone="amber">Archived</Badge> : null}
                    </TableCell>
                    <TableCell className="tabular-nums">v{p.version}</TableCell>
                    <TableCell className="tabular-nums">{formatPrice(p.priceCents)}</TableCell>
                    <TableCell>
                      {formatFeatureValue("bool", p.entitlements.failover_tuning ?? false)}
                    </TableCell>
                    <TableCell className="tabular-nums">
                      {formatFeatureValue("int", p.entitlements.included_requests_month ?? null)}
                    </TableCell>
                    <TableCell className="tabular-nums">{p.subscriptionCount}</TableCell>
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

function CreatePlanDialog() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [slug, setSlug] = useState("");
  const [name, setName] = useState("");
  const [price, setPrice] = useState("0");
  const create = useMutation(
    trpc.operator.createPlan.mutationOptions({
      onSuccess: async (plan) => {
        await queryClient.invalidateQueries({ queryKey: trpc.operator.listPlans.queryKey() });
        setOpen(false);
        router.push(`/plans/${plan.slug}`);
      },
    }),
  );
  const { message, fieldErrors } = errorInfo(create.error);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          <PlusIcon size={13} /> Create plan
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create a plan</DialogTitle>
          <DialogDescription>
            Version 1 starts from the catalogue defaults; edit its features after creating it.
          </DialogDescription>
        </DialogHeader>
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ slug, name, priceCents: Math.round(Number(price) * 100) });
          }}
        >
          <div>
            <Label htmlFor="plan-name">Name</Label>
            <Input id="plan-name" value={name} onChange={(e) => setName(e.target.value)} />
            <FieldError message={fieldErrors.name} />
          </div>
          <div>
            <Label htmlFor="plan-slug">Slug</Label>
            <Input
              id="plan-slug"
              value={slug}
              onChange={(e) => setSlug(e.target.value)}
              placeholder="startup"
            />
            <FieldError message={fieldErrors.slug} />
          </div>
          <div>
            <Label htmlFor="plan-price">Price per month (USD)</Label>
            <Input
              id="plan-price"
              type="number"
              step="0.01"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
            />
            <FieldError message={fieldErrors.priceCents} />
          </div>
          <FormError message={message} />
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create plan"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function FieldError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return <p className="mt-1 text-xs text-red-600">{message}</p>;
}
