"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { FormError, Input, Label } from "@/components/ui/form";
import { AlertIcon, KeyIcon, PlusIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { useTRPC } from "@/lib/trpc/client";
import { formatDate } from "./format";
import { useNewKey } from "./new-key";

/** A project's keys: list, mint (plaintext shown once), revoke. Writes only for admins and up. */
export function ApiKeysPanel({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ projectId }));
  const [formOpen, setFormOpen] = useState(false);
  const [name, setName] = useState("");
  const [readOnly, setReadOnly] = useState(false);
  const { newKey: revealed, setNewKey: setRevealed } = useNewKey();
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey({ projectId }) });

  const create = useMutation(
    trpc.apiKey.create.mutationOptions({
      onSuccess: async (res) => {
        setRevealed({ name: res.key.name, apiKey: res.apiKey, readOnly: res.key.readOnly });
        setFormOpen(false);
        setName("");
        setReadOnly(false);
        await invalidate();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKey.revoke.mutationOptions({ onSuccess: invalidate }));

  return (
    <Card>
      <CardHeader
        title="API keys"
        description="SDKs authenticate with a project key. Keys are stored hashed; the full key is shown once."
        actions={
          canManage && !formOpen ? (
            <Button variant="secondary" size="sm" onClick={() => setFormOpen(true)}>
              <PlusIcon size={13} /> Create key
            </Button>
          ) : null
        }
      />

      {revealed ? (
        <div className="border-b border-emerald-100 bg-emerald-50/60 px-5 py-4" data-testid="new-key">
          <p className="text-[13px] font-medium text-emerald-900">
            Key “{revealed.name}” created. Copy it now.
          </p>
          <p className="mt-0.5 text-xs text-emerald-800/80">
            This is the only time it is shown. If you lose it, revoke it and create another.
          </p>
          <div className="mt-3 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-md border border-emerald-200 bg-white px-3 py-1.5 font-mono text-[12px] text-zinc-800">
              {revealed.apiKey}
            </code>
            <CopyButton value={revealed.apiKey} />
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
            create.mutate({ projectId, name, readOnly });
          }}
        >
          <div className="w-64">
            <Label htmlFor="key-name">Key name</Label>
            <Input
              id="key-name"
              required
              maxLength={100}
              autoFocus
              placeholder="production"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <label className="flex h-9 items-center gap-2 text-[13px] text-zinc-700">
            <input
              type="checkbox"
              checked={readOnly}
              onChange={(e) => setReadOnly(e.target.checked)}
              className="size-4 accent-brand-600"
            />
            Read-only <span className="text-xs text-zinc-500">(cannot check budgets or report usage)</span>
          </label>
          <div className="ml-auto flex gap-2">
            <Button variant="ghost" onClick={() => setFormOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create key"}
            </Button>
          </div>
          {create.error ? (
            <div className="w-full">
              <FormError message={create.error.message} />
            </div>
          ) : null}
        </form>
      ) : null}

      {revoke.error ? (
        <div className="px-5 pt-4">
          <FormError message={revoke.error.message} />
        </div>
      ) : null}

      {keys.isPending ? (
        <div className="px-5 py-8 text-center text-[13px] text-zinc-400">Loading keys…</div>
      ) : keys.error ? (
        <div className="px-5 py-4">
          <FormError message={keys.error.message} />
        </div>
      ) : keys.data.length === 0 ? (
        <div className="flex flex-col items-center px-5 py-10 text-center">
          <KeyIcon size={18} className="text-zinc-400" />
          <p className="mt-2 text-[13px] font-medium text-zinc-900">No keys yet</p>
          <p className="mt-0.5 text-xs text-zinc-500">
            {canManage
              ? "Create a key, then set it as SOLWYN_API_KEY in your app."
              : "An admin can create one."}
          </p>
        </div>
      ) : (
        // A phone scrolls the keys sideways inside the card, never the page.
        <div className="overflow-x-auto">
          <table className="w-full text-left text-[13px]">
            <thead className="text-xs text-zinc-500">
              <tr className="border-b border-zinc-100">
                <th className="px-5 py-2 font-medium">Name</th>
                <th className="px-5 py-2 font-medium">Key</th>
                <th className="px-5 py-2 font-medium">Access</th>
                <th className="px-5 py-2 font-medium">Created</th>
                <th className="px-5 py-2 font-medium">Last used</th>
                <th className="px-5 py-2" />
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {keys.data.map((k) => (
                <tr key={k.id} className={k.revokedAt ? "text-zinc-400" : undefined}>
                  <td className="px-5 py-2.5 font-medium text-zinc-900">
                    <span className={k.revokedAt ? "text-zinc-400 line-through" : undefined}>{k.name}</span>
                  </td>
                  <td className="px-5 py-2.5 font-mono text-[12px] text-zinc-600">{k.prefix}</td>
                  <td className="px-5 py-2.5">
                    {k.revokedAt ? (
                      <Badge tone="red">Revoked</Badge>
                    ) : k.readOnly ? (
                      <Badge tone="neutral">Read-only</Badge>
                    ) : (
                      <Badge tone="green">Read &amp; write</Badge>
                    )}
                  </td>
                  <td className="px-5 py-2.5 text-zinc-500">{formatDate(k.createdAt)}</td>
                  <td className="px-5 py-2.5 text-zinc-500">
                    {k.lastUsedAt ? formatDate(k.lastUsedAt) : "Never"}
                  </td>
                  <td className="px-5 py-2.5 text-right">
                    {canManage && !k.revokedAt ? (
                      <ConfirmDialog
                        title={`Revoke “${k.name}”?`}
                        description={`SDKs using ${k.prefix}… stop at once: their next call is refused. This cannot be undone.`}
                        confirmLabel="Revoke key"
                        onConfirm={() => revoke.mutate({ keyId: k.id })}
                        trigger={
                          <Button variant="danger" size="sm" disabled={revoke.isPending}>
                            Revoke
                          </Button>
                        }
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!canManage ? (
        <p className="flex items-center gap-1.5 border-t border-zinc-100 px-5 py-3 text-xs text-zinc-500">
          <AlertIcon size={13} /> You have read-only access. Admins create and revoke keys.
        </p>
      ) : null}
    </Card>
  );
}
