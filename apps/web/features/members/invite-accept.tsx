"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { authErrorMessage } from "@/features/auth/auth-errors";
import { authClient } from "@/lib/auth-client";
import { useTRPC } from "@/lib/trpc/client";
import { useMounted } from "@/lib/use-mounted";

/** After joining: a full load, so the layout and every cache start in the new organization. */
const land = () => window.location.assign("/projects");

/** Signed in with the invited address: one button joins the organization. */
export function AcceptInvitationButton({
  token,
  organizationName,
}: {
  token: string;
  organizationName: string;
}) {
  const trpc = useTRPC();
  const mounted = useMounted();
  const accept = useMutation(trpc.invitation.accept.mutationOptions({ onSuccess: land }));
  return (
    <div className="space-y-4">
      <FormError message={accept.error?.message} />
      <Button
        className="h-9 w-full"
        disabled={!mounted || accept.isPending || accept.isSuccess}
        onClick={() => accept.mutate({ token })}
      >
        {accept.isPending || accept.isSuccess ? "Joining…" : `Join ${organizationName}`}
      </Button>
    </div>
  );
}

/**
 * Signed out: create an account for the invited address, then join at once and land in the
 * organization. The address is fixed — the invitation is for it alone.
 */
export function InviteSignUpForm({ token, email }: { token: string; email: string }) {
  const trpc = useTRPC();
  const mounted = useMounted();
  const accept = useMutation(trpc.invitation.accept.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    let retryAfter: number | null = null;
    try {
      const { error: failure } = await authClient.signUp.email(
        { name: String(form.get("name")).trim(), email, password: String(form.get("password")) },
        {
          onError: ({ response }: { response: Response }) => {
            retryAfter = Number(response.headers.get("x-retry-after")) || null;
          },
        },
      );
      if (failure) {
        setError(authErrorMessage(failure, retryAfter));
        setPending(false);
        return;
      }
      await accept.mutateAsync({ token });
      land();
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : "Cannot reach Breakwater. Try again.");
      setPending(false);
    }
  };

  return (
    <form className="space-y-4" onSubmit={onSubmit}>
      <div>
        <Label htmlFor="invite-name">Name</Label>
        <Input
          id="invite-name"
          name="name"
          autoComplete="name"
          required
          autoFocus
          placeholder="Ada Lovelace"
        />
      </div>
      <div>
        <Label htmlFor="invite-email">Email</Label>
        <Input id="invite-email" name="email" type="email" value={email} readOnly disabled />
        <Hint>The invitation is for this address.</Hint>
      </div>
      <div>
        <Label htmlFor="invite-password">Password</Label>
        <Input
          id="invite-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
        />
        <Hint>At least 8 characters.</Hint>
      </div>
      <FormError message={error} />
      <Button type="submit" className="h-9 w-full" disabled={pending || !mounted}>
        {pending ? "Joining…" : "Create account and join"}
      </Button>
    </form>
  );
}
