"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError, Input, Label } from "@/components/ui/form";
import { OperatorsIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, formatWhen } from "./format";

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
  return (
    <Card>
      <CardHeader
        title="Operators"
        description="Operators edit plans, entitlements and prices, and see every organization."
      />
      <div className="border-b border-zinc-100 px-4 py-3">
        <Label htmlFor="user-search">Find a user</Label>
        <Input
          id="user-search"
          type="search"
          placeholder="Email or name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="max-w-sm"
        />
      </div>
      <div className="space-y-2 p-2">
        <FormError message={change.error ? errorInfo(change.error).message : null} />
        <QueryState
          query={users}
          loading={<LoadingState label="Loading users" rows={3} />}
          empty={
            <EmptyState
              icon={<OperatorsIcon size={18} />}
              title="No user matches"
              description="Nobody has that text in their email or name."
            />
          }
        >
          {(rows) => (
            <Table aria-label="Users">
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead>Signed up</TableHead>
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((u) => (
                  <TableRow key={u.id} data-testid={`user-row-${u.email}`}>
                    <TableCell>
                      <span className="font-medium text-zinc-900">{u.name}</span>{" "}
                      <span className="text-[12px] text-zinc-500">{u.email}</span>
                      {u.id === selfId ? <Badge className="ml-1.5">You</Badge> : null}
                    </TableCell>
                    <TableCell>{u.isOperator ? <Badge tone="brand">Operator</Badge> : "—"}</TableCell>
                    <TableCell className="whitespace-nowrap text-zinc-500">
                      {formatWhen(u.createdAt)}
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {u.isOperator ? (
                        <ConfirmDialog
                          trigger={
                            <Button
                              size="sm"
                              variant="danger"
                              aria-label={`Revoke operator role of ${u.email}`}
                            >
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
                      )}
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
