"use client";

import type { AppRouter } from "@breakwater/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useDeferredValue, useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ColumnDef } from "@/components/ui/data-table";
import { FormError } from "@/components/ui/form";
import { OperatorsIcon } from "@/components/ui/icons";
import { KeysetTable, SearchField } from "@/components/ui/keyset-table";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, formatWhen } from "./format";

type UserRow = inferRouterOutputs<AppRouter>["operator"]["listUsers"][number];

/**
 * The operators of the installation and a search over everyone else: grant or revoke the role
 * (audited; the server refuses to revoke the last operator).
 */
export function OperatorsConsole({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const users = useQuery(trpc.operator.listUsers.queryOptions({ search: deferred }));
  const change = useMutation(
    trpc.operator.setOperatorRole.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.operator.listUsers.pathKey() }),
    }),
  );
  const columns: ColumnDef<UserRow>[] = [
    {
      header: "User",
      cell: ({ row: { original: u } }) => (
        <>
          <span className="font-medium text-zinc-900">{u.name}</span>{" "}
          <span className="text-[12px] text-zinc-500">{u.email}</span>
          {u.id === selfId ? <Badge className="ml-1.5">You</Badge> : null}
        </>
      ),
    },
    {
      header: "Role",
      cell: ({ row }) => (row.original.isOperator ? <Badge tone="brand">Operator</Badge> : "—"),
    },
    {
      header: "Signed up",
      cell: ({ row }) => formatWhen(row.original.createdAt),
      meta: { cellClassName: "whitespace-nowrap text-zinc-500" },
    },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original: u } }) =>
        u.isOperator ? (
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="danger" aria-label={`Revoke operator role of ${u.email}`}>
                Revoke
              </Button>
            }
            title={`Revoke ${u.name}'s operator role?`}
            description="They keep their account and organizations, but no longer see the operator console."
            confirmLabel="Revoke"
            onConfirm={() => change.mutate({ user: u.id, isOperator: false })}
          />
        ) : (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Make ${u.email} an operator`}
            disabled={change.isPending}
            onClick={() => change.mutate({ user: u.id, isOperator: true })}
          >
            Make operator
          </Button>
        ),
      meta: { cellClassName: "whitespace-nowrap" },
    },
  ];
  return (
    <Card>
      <CardHeader
        title="Operators"
        description="Operators edit plans, entitlements and prices, and see every organization."
      />
      <KeysetTable
        inset
        query={users}
        columns={columns}
        label="Users"
        getRowId={(u) => u.id}
        rowAttributes={(u) => ({ "data-testid": `user-row-${u.email}` })}
        toolbar={
          <>
            <SearchField
              id="user-search"
              label="Find a user"
              placeholder="Email or name"
              value={search}
              onChange={setSearch}
            />
            {/* The role change's refusal (the last operator), just above the rows it is about. */}
            <FormError message={change.error ? errorInfo(change.error).message : null} />
          </>
        }
        loading={<LoadingState label="Loading users" rows={3} />}
        empty={
          <EmptyState
            icon={<OperatorsIcon size={18} />}
            title="No user matches"
            description="Nobody has that text in their email or name."
          />
        }
      />
    </Card>
  );
}
