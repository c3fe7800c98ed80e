"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form";
import { LockIcon, MembersIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { formatDay, type Invitation, type Member, ROLE_OPTIONS, type Role, roleLabel } from "./format";

const ROLE_TONE: Record<Role, "brand" | "green" | "neutral" | "amber"> = {
  owner: "brand",
  admin: "green",
  member: "neutral",
  viewer: "amber",
};

/**
 * The organization's people: members with their role and, for admins and owners, controls to
 * change roles and remove, plus the pending invitations. Owners alone grant or take away "owner";
 * the server refuses anything else whatever this page shows.
 */
export function MembersPanel({
  canManage,
  isOwner,
  userId,
}: {
  canManage: boolean;
  isOwner: boolean;
  userId: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.member.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.member.list.queryKey() });
  const [error, setError] = useState<string | null>(null);
  const onError = (err: { message: string }) => setError(err.message);
  const onSuccess = async () => {
    setError(null);
    await invalidate();
  };
  // A new attempt clears the last refusal, so a message on screen is always about the latest one.
  const onMutate = () => setError(null);
  const changeRole = useMutation(trpc.member.changeRole.mutationOptions({ onMutate, onSuccess, onError }));
  const remove = useMutation(trpc.member.remove.mutationOptions({ onMutate, onSuccess, onError }));
  const revoke = useMutation(trpc.member.revokeInvitation.mutationOptions({ onMutate, onSuccess, onError }));

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Members"
          description={
            canManage
              ? "Admins manage members; only owners grant or take away the owner role. An organization always keeps one owner."
              : "Everyone in this organization and what they may do."
          }
        />
        {error ? (
          <div className="px-5 pt-4">
            <FormError message={error} />
          </div>
        ) : null}
        <QueryState query={list} loading={<LoadingState rows={3} className="p-5" />}>
          {(data) =>
            data.members.length === 0 ? (
              <EmptyState
                className="m-5"
                icon={<MembersIcon size={18} />}
                title="No members"
                description="Invite teammates to share this organization's projects."
              />
            ) : (
              <Table aria-label="Members">
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Role</TableHead>
                    <TableHead>Joined</TableHead>
                    {canManage ? (
                      <TableHead>
                        <span className="sr-only">Actions</span>
                      </TableHead>
                    ) : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.members.map((m) => (
                    <MemberRow
                      key={m.id}
                      member={m}
                      isSelf={m.userId === userId}
                      canManage={canManage}
                      isOwner={isOwner}
                      busy={changeRole.isPending || remove.isPending}
                      onRole={(role) => changeRole.mutate({ memberId: m.id, role })}
                      onRemove={() => remove.mutate({ memberId: m.id })}
                    />
                  ))}
                </TableBody>
              </Table>
            )
          }
        </QueryState>
        {!canManage ? (
          <p className="flex items-center gap-1.5 border-t border-zinc-100 px-5 py-3 text-xs text-zinc-500">
            <LockIcon size={13} /> You have read-only access. Admins and owners invite and manage members.
          </p>
        ) : null}
      </Card>

      {canManage ? (
        <Card>
          <CardHeader
            title="Pending invitations"
            description="Each link works once, for the invited address only, and expires after 7 days. Revoke one to stop its link at once."
          />
          <QueryState query={list} loading={<LoadingState rows={2} className="p-5" />}>
            {(data) =>
              data.invitations.length === 0 ? (
                <p className="px-5 py-8 text-center text-[13px] text-zinc-500">No pending invitations.</p>
              ) : (
                <Table aria-label="Pending invitations">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Email</TableHead>
                      <TableHead>Role</TableHead>
                      <TableHead>Invited by</TableHead>
                      <TableHead>Expires</TableHead>
                      <TableHead>
                        <span className="sr-only">Actions</span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.invitations.map((i) => (
                      <InvitationRow
                        key={i.id}
                        invitation={i}
                        canRevoke={isOwner || i.role !== "owner"}
                        busy={revoke.isPending}
                        onRevoke={() => revoke.mutate({ invitationId: i.id })}
                      />
                    ))}
                  </TableBody>
                </Table>
              )
            }
          </QueryState>
        </Card>
      ) : null}
    </div>
  );
}

function MemberRow({
  member: m,
  isSelf,
  canManage,
  isOwner,
  busy,
  onRole,
  onRemove,
}: {
  member: Member;
  isSelf: boolean;
  canManage: boolean;
  isOwner: boolean;
  busy: boolean;
  onRole: (role: Role) => void;
  onRemove: () => void;
}) {
  // Admins cannot touch owners or make one; the server says so too.
  const editable = canManage && (isOwner || m.role !== "owner");
  const options = ROLE_OPTIONS.filter((r) => isOwner || r.value !== "owner");
  return (
    <TableRow data-testid="member-row" data-email={m.email}>
      <TableCell>
        <div className="font-medium whitespace-nowrap text-zinc-900">
          {m.name}
          {isSelf ? <span className="ml-1.5 text-xs font-normal text-zinc-500">(you)</span> : null}
        </div>
        <div className="text-xs text-zinc-500">{m.email}</div>
      </TableCell>
      <TableCell>
        {editable ? (
          <Select value={m.role} onValueChange={(v) => onRole(v as Role)} disabled={busy}>
            <SelectTrigger aria-label={`Role of ${m.email}`} className="h-8 w-32">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {options.map((r) => (
                <SelectItem key={r.value} value={r.value}>
                  {r.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        ) : (
          <Badge tone={ROLE_TONE[m.role]}>{roleLabel(m.role)}</Badge>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap text-zinc-500">{formatDay(m.joinedAt)}</TableCell>
      {canManage ? (
        <TableCell className="text-right">
          {editable ? (
            <ConfirmDialog
              title={isSelf ? "Leave this organization?" : `Remove ${m.name}?`}
              description={
                isSelf
                  ? "You lose access to its projects at once. Someone must invite you again to come back."
                  : `${m.email} loses access to this organization's projects at once. You can invite them again later.`
              }
              confirmLabel={isSelf ? "Leave" : "Remove member"}
              onConfirm={onRemove}
              trigger={
                <Button variant="danger" size="sm" disabled={busy} aria-label={`Remove ${m.email}`}>
                  Remove
                </Button>
              }
            />
          ) : null}
        </TableCell>
      ) : null}
    </TableRow>
  );
}

function InvitationRow({
  invitation: i,
  canRevoke,
  busy,
  onRevoke,
}: {
  invitation: Invitation;
  canRevoke: boolean;
  busy: boolean;
  onRevoke: () => void;
}) {
  return (
    <TableRow data-testid="invitation-row" data-email={i.email}>
      <TableCell className="font-medium whitespace-nowrap text-zinc-900">{i.email}</TableCell>
      <TableCell>
        <Badge tone={ROLE_TONE[i.role]}>{roleLabel(i.role)}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap text-zinc-500">{i.inviterName}</TableCell>
      <TableCell className="whitespace-nowrap">
        {i.expired ? (
          <Badge tone="red">Expired</Badge>
        ) : (
          <span className="text-zinc-500">{formatDay(i.expiresAt)}</span>
        )}
      </TableCell>
      <TableCell className="text-right">
        {canRevoke ? (
          <ConfirmDialog
            title={`Revoke the invitation for ${i.email}?`}
            description="Its link stops working at once. You can invite the address again."
            confirmLabel="Revoke invitation"
            onConfirm={onRevoke}
            trigger={
              <Button
                variant="secondary"
                size="sm"
                disabled={busy}
                aria-label={`Revoke invitation for ${i.email}`}
              >
                Revoke
              </Button>
            }
          />
        ) : null}
      </TableCell>
    </TableRow>
  );
}
