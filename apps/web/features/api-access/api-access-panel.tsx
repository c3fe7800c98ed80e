"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { type ColumnDef, DataTable } from "@/components/ui/data-table";
import { FormError, Input, Label } from "@/components/ui/form";
import { KeyIcon, PlusIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatDate } from "@/features/projects/format";
import { useTRPC } from "@/lib/trpc/client";

/** A management key as the list shows it. */
interface KeyRow {
  id: string;
  name: string;
  scope: "read" | "write" | "operator";
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const SCOPE_LABEL = { read: "Read", write: "Read & write", operator: "Operator" } as const;
const EXPIRY = [
  { value: "never", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
] as const;

function expiresAtOf(choice: string): Date | undefined {
  return choice === "never" ? undefined : new Date(Date.now() + Number(choice) * 86_400_000);
}

function statusOf(k: KeyRow, now: number) {
  if (k.revokedAt) return <Badge tone="red">Revoked</Badge>;
  if (k.expiresAt && Date.parse(k.expiresAt) <= now) return <Badge tone="amber">Expired</Badge>;
  return <Badge tone="green">Active</Badge>;
}

/**
 * Management keys for the management API (/api/manage/v1): create (name, scope, expiry; the key is
 * shown once), list with last use, revoke with a confirmation. `operator` lists and mints the
 * installation's operator keys instead of the organization's.
 */
export function ApiAccessPanel({ operator = false }: { operator?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listOptions = operator
    ? trpc.managementKey.operatorList.queryOptions()
    : trpc.managementKey.list.queryOptions();
  const keys = useQuery(listOptions);
  const [formOpen, setFormOpen] = useState(false);
  const [name, setName] = useState("");
  const [scope, setScope] = useState<"read" | "write">("read");
  const [expiry, setExpiry] = useState<string>("never");
  const [revealed, setRevealed] = useState<{ name: string; key: string } | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: listOptions.queryKey });

  const onCreated = async (res: { managementKey: string; key: { name: string } }) => {
    setRevealed({ name: res.key.name, key: res.managementKey });
    setFormOpen(false);
    setName("");
    setScope("read");
    setExpiry("never");
    await invalidate();
  };
  const create = useMutation(trpc.managementKey.create.mutationOptions({ onSuccess: onCreated }));
  const createOperator = useMutation(
    trpc.managementKey.operatorCreate.mutationOptions({ onSuccess: onCreated }),
  );
  const revoke = useMutation(trpc.managementKey.revoke.mutationOptions({ onSuccess: invalidate }));
  const revokeOperator = useMutation(
    trpc.managementKey.operatorRevoke.mutationOptions({ onSuccess: invalidate }),
  );
  const creating = operator ? createOperator : create;
  const revoking = operator ? revokeOperator : revoke;
  const now = Date.now();

  // Cells never wrap: on a phone the table scrolls sideways inside its card instead.
  const nowrap = { cellClassName: "whitespace-nowrap" };
  const columns: ColumnDef<KeyRow>[] = [
    {
      accessorKey: "name",
      meta: nowrap,
      header: "Name",
      cell: ({ row }) => (
        <span className={row.original.revokedAt ? "text-zinc-400 line-through" : "font-medium text-zinc-900"}>
          {row.original.name}
        </span>
      ),
    },
    {
      accessorKey: "prefix",
      meta: nowrap,
      header: "Key",
      enableSorting: false,
      cell: ({ row }) => <span className="font-mono text-[12px] text-zinc-600">{row.original.prefix}</span>,
    },
    {
      accessorKey: "scope",
      meta: nowrap,
      header: "Scope",
      cell: ({ row }) => (
        <Badge tone={row.original.scope === "read" ? "neutral" : "brand"}>
          {SCOPE_LABEL[row.original.scope]}
        </Badge>
      ),
    },
    {
      id: "status",
      meta: nowrap,
      header: "Status",
      enableSorting: false,
      cell: ({ row }) => statusOf(row.original, now),
    },
    {
      accessorKey: "createdAt",
      meta: nowrap,
      header: "Created",
      cell: ({ row }) => <span className="text-zinc-500">{formatDate(row.original.createdAt)}</span>,
    },
    {
      accessorKey: "lastUsedAt",
      meta: nowrap,
      header: "Last used",
      cell: ({ row }) => (
        <span className="text-zinc-500" data-testid="last-used">
          {row.original.lastUsedAt ? formatDate(row.original.lastUsedAt) : "Never"}
        </span>
      ),
    },
    {
      accessorKey: "expiresAt",
      meta: nowrap,
      header: "Expires",
      cell: ({ row }) => (
        <span className="text-zinc-500">
          {row.original.expiresAt ? formatDate(row.original.expiresAt) : "Never"}
        </span>
      ),
    },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      enableSorting: false,
      meta: { cellClassName: "whitespace-nowrap text-right" },
      cell: ({ row }) =>
        row.original.revokedAt ? null : (
          <ConfirmDialog
            title={`Revoke “${row.original.name}”?`}
            description={`Automation using ${row.original.prefix} stops at once: its next request is refused with 401. This cannot be undone.`}
            confirmLabel="Revoke key"
            onConfirm={() => revoking.mutate({ keyId: row.original.id })}
            trigger={
              <Button variant="danger" size="sm" disabled={revoking.isPending}>
                Revoke
              </Button>
            }
          />
        ),
    },
  ];

  return (
    <Card>
      <CardHeader
        title={operator ? "Operator keys" : "Management keys"}
        description={
          operator
            ? "Keys for the operator endpoints (plans, organizations' plans, overrides, price cards). They stop working if their creator stops being an operator."
            : "Keys for the management API at /api/manage/v1. Read keys read; read & write keys also change projects, budgets and SDK keys."
        }
        actions={
          !formOpen ? (
            <Button variant="secondary" size="sm" onClick={() => setFormOpen(true)}>
              <PlusIcon size={13} /> Create key
            </Button>
          ) : null
        }
      />

      {revealed ? (
        <div
          className="border-b border-emerald-100 bg-emerald-50/60 px-5 py-4"
          data-testid="new-management-key"
        >
          <p className="text-[13px] font-medium text-emerald-900">
            Key “{revealed.name}” created. Copy it now.
          </p>
          <p className="mt-0.5 text-xs text-emerald-800/80">
            This is the only time it is shown. If you lose it, revoke it and create another.
          </p>
          <div className="mt-3 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-md border border-emerald-200 bg-white px-3 py-1.5 font-mono text-[12px] text-zinc-800">
              {revealed.key}
            </code>
            <CopyButton value={revealed.key} />
            <Button variant="ghost" size="sm" onClick={() => setRevealed(null)}>
              Done
            </Button>
          </div>
        </div>
      ) : null}

      {formOpen ? (
        <form
          className="flex flex-wrap items-end gap-4 border-b border-zinc-100 bg-zinc-50/60 px-5 py-4"
          onSubmit={(e) => {
            e.preventDefault();
            const expiresAt = expiresAtOf(expiry);
            if (operator) createOperator.mutate({ name, expiresAt });
            else create.mutate({ name, scope, expiresAt });
          }}
        >
          <div className="w-full sm:w-64">
            <Label htmlFor={operator ? "operator-key-name" : "mgmt-key-name"}>Key name</Label>
            <Input
              id={operator ? "operator-key-name" : "mgmt-key-name"}
              required
              maxLength={100}
              autoFocus
              placeholder={operator ? "billing" : "ci-deploys"}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          {operator ? null : (
            <div className="w-full sm:w-44">
              <span className="mb-1.5 block text-[13px] font-medium text-zinc-800">Scope</span>
              <Select value={scope} onValueChange={(v) => setScope(v as "read" | "write")}>
                <SelectTrigger aria-label="Scope">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="read">Read</SelectItem>
                  <SelectItem value="write">Read &amp; write</SelectItem>
                </SelectContent>
              </Select>
            </div>
          )}
          <div className="w-full sm:w-40">
            <span className="mb-1.5 block text-[13px] font-medium text-zinc-800">Expires</span>
            <Select value={expiry} onValueChange={setExpiry}>
              <SelectTrigger aria-label="Expires">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {EXPIRY.map((e) => (
                  <SelectItem key={e.value} value={e.value}>
                    {e.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="ml-auto flex gap-2">
            <Button variant="ghost" onClick={() => setFormOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={creating.isPending}>
              {creating.isPending ? "Creating…" : "Create key"}
            </Button>
          </div>
          {creating.error ? (
            <div className="w-full">
              <FormError message={creating.error.message} />
            </div>
          ) : null}
        </form>
      ) : null}

      {revoking.error ? (
        <div className="px-5 pt-4">
          <FormError message={revoking.error.message} />
        </div>
      ) : null}

      <div className="px-5 py-4">
        {keys.isPending ? (
          <LoadingState label="Loading keys…" />
        ) : keys.error ? (
          <ErrorState
            title="Could not load the keys"
            message={keys.error.message}
            onRetry={() => keys.refetch()}
          />
        ) : keys.data.length === 0 ? (
          <EmptyState
            icon={<KeyIcon size={18} />}
            title="No management keys yet"
            description={
              operator
                ? "Create one for a billing system that moves organizations between plans."
                : "Create one for CI, Terraform or a script that configures projects, budgets and SDK keys over HTTP."
            }
          />
        ) : (
          // A phone scrolls the table sideways inside the card, never the page.
          <div className="-mx-5 overflow-x-auto px-5">
            <DataTable
              label={operator ? "Operator keys" : "Management keys"}
              columns={columns}
              data={keys.data as KeyRow[]}
              getRowId={(k) => k.id}
              rowAttributes={(k) => ({ "data-testid": `mgmt-key-${k.name}` })}
            />
          </div>
        )}
      </div>
    </Card>
  );
}
