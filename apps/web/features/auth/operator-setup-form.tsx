"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { authClient } from "@/lib/auth-client";
import { useTRPC } from "@/lib/trpc/client";
import { useMounted } from "@/lib/use-mounted";
import { authErrorMessage } from "./auth-errors";

/**
 * Redeems a setup link: signed in → "make this account the operator"; otherwise creates the
 * account first, then redeems. Lands on the operator console.
 */
export function OperatorSetupForm({ token, signedInAs }: { token: string; signedInAs: string | null }) {
  const trpc = useTRPC();
  const mounted = useMounted();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const redeem = useMutation(trpc.setup.redeem.mutationOptions());

  const claim = async () => {
    try {
      await redeem.mutateAsync({ token });
      window.location.assign("/plans");
    } catch (e) {
      setError((e as Error).message);
      setPending(false);
    }
  };

  if (signedInAs) {
    return (
      <div className="space-y-4">
        <p className="text-[13px] text-zinc-600">
          You are signed in as <span className="font-medium text-zinc-900">{signedInAs}</span>.
        </p>
        <FormError message={error} />
        <Button
          className="h-9 w-full"
          disabled={pending || !mounted}
          onClick={() => {
            setPending(true);
            setError(null);
            void claim();
          }}
        >
          {pending ? "Setting up…" : "Make this account the operator"}
        </Button>
      </div>
    );
  }

  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        setPending(true);
        setError(null);
        const { error: failure } = await authClient.signUp.email({
          name: String(form.get("name")).trim(),
          email: String(form.get("email")).trim(),
          password: String(form.get("password")),
        });
        if (failure) {
          setError(authErrorMessage(failure, null));
          setPending(false);
          return;
        }
        await claim();
      }}
    >
      <div>
        <Label htmlFor="name">Name</Label>
        <Input id="name" name="name" autoComplete="name" required autoFocus />
      </div>
      <div>
        <Label htmlFor="email">Email</Label>
        <Input id="email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <Label htmlFor="password">Password</Label>
        <Input
          id="password"
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
        {pending ? "Creating the operator…" : "Create operator account"}
      </Button>
    </form>
  );
}
