"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Input, Label } from "@/components/ui/form";
import { authClient } from "@/lib/auth-client";
import { useMounted } from "@/lib/use-mounted";
import { authErrorMessage } from "./auth-errors";

export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const mounted = useMounted();

  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        setPending(true);
        setError(null);
        try {
          let retryAfter: number | null = null;
          const { error: failure } = await authClient.signIn.email(
            { email: String(form.get("email")), password: String(form.get("password")) },
            {
              onError: ({ response }) => {
                retryAfter = Number(response.headers.get("x-retry-after")) || null;
              },
            },
          );
          if (failure) {
            setError(authErrorMessage(failure, retryAfter));
            setPending(false);
            return;
          }
          // A full load: every server component and client cache starts from the new session.
          window.location.assign(next);
        } catch {
          setError("Cannot reach Breakwater. Check your connection and try again.");
          setPending(false);
        }
      }}
    >
      <div>
        <Label htmlFor="email">Email</Label>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          placeholder="you@company.com"
        />
      </div>
      <div>
        <Label htmlFor="password">Password</Label>
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <FormError message={error} />
      <Button type="submit" className="h-9 w-full" disabled={pending || !mounted}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
