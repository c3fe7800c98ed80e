"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
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
import { UserPlusIcon } from "@/components/ui/icons";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, ROLE_OPTIONS, type Role } from "./format";

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-600" data-testid={id}>
      {message}
    </p>
  );
}

/**
 * Invite by email with a role. No mail is sent: the accept link is shown here once, to copy and
 * pass on; it works for that address only and expires after 7 days.
 */
export function InviteDialog({ canInviteOwners }: { canInviteOwners: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const invite = useMutation(
    trpc.member.invite.mutationOptions({
      onSuccess: async (res) => {
        setLink({ email: res.invitation.email, url: res.url });
        await queryClient.invalidateQueries({ queryKey: trpc.member.list.queryKey() });
      },
    }),
  );
  const { message, fieldErrors } = errorInfo(invite.error);
  const reset = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setEmail("");
      setRole("member");
      setLink(null);
      invite.reset();
    }
  };
  const fieldMessage = fieldErrors.email || fieldErrors.role;

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon size={14} /> Invite member
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{link ? "Invitation created" : "Invite a member"}</DialogTitle>
          <DialogDescription>
            {link
              ? `Send this link to ${link.email}. It works once, for that address only, and expires in 7 days.`
              : "Breakwater sends no email: you get a link to pass on. The invitee signs up or signs in with this address to join."}
          </DialogDescription>
        </DialogHeader>
        {link ? (
          <div className="space-y-4">
            <div className="flex items-center gap-2">
              <code
                className="min-w-0 flex-1 truncate rounded-md border border-zinc-200 bg-zinc-50 px-3 py-1.5 font-mono text-[12px] text-zinc-800"
                data-testid="invite-link"
              >
                {link.url}
              </code>
              <CopyButton value={link.url} label="Copy link" />
            </div>
            <DialogFooter>
              <Button variant="secondary" onClick={() => reset(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form
            className="space-y-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate({ email, role });
            }}
          >
            <div>
              <Label htmlFor="invite-email">Email</Label>
              <Input
                id="invite-email"
                type="email"
                autoComplete="off"
                autoFocus
                placeholder="teammate@company.com"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                aria-invalid={fieldErrors.email ? true : undefined}
                aria-describedby={fieldErrors.email ? "invite-email-error" : undefined}
              />
              <FieldError id="invite-email-error" message={fieldErrors.email} />
            </div>
            <div>
              <span className="mb-1.5 block text-[13px] font-medium text-zinc-800" aria-hidden="true">
                Role
              </span>
              <Select value={role} onValueChange={(v) => setRole(v as Role)}>
                <SelectTrigger aria-label="Role">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {ROLE_OPTIONS.filter((r) => canInviteOwners || r.value !== "owner").map((r) => (
                    <SelectItem key={r.value} value={r.value}>
                      {r.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p className="mt-1.5 text-xs text-zinc-500">
                {ROLE_OPTIONS.find((r) => r.value === role)?.description}
              </p>
              <FieldError id="invite-role-error" message={fieldErrors.role} />
            </div>
            {/* A field's message is shown beside it; anything else (a permission refusal) here. */}
            <FormError message={fieldMessage ? null : message} />
            <DialogFooter>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending ? "Creating…" : "Create invitation"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
