"use client";

import { Button } from "@/components/ui/button";
import { FormError, Input, Label } from "@/components/ui/form";
import { authClient } from "@/lib/auth-client";
import { useAuthSubmit } from "./use-auth-submit";

export function SignInForm({ next }: { next: string }) {
  const { error, pending, disabled, onSubmit } = useAuthSubmit(
    (form, fetchOptions) =>
      authClient.signIn.email(
        { email: String(form.get("email")), password: String(form.get("password")) },
        fetchOptions,
      ),
    next,
  );

  return (
    <form className="space-y-4" onSubmit={onSubmit}>
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
      <Button type="submit" className="h-9 w-full" disabled={disabled}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
