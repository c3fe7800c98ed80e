"use client";

import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { authClient } from "@/lib/auth-client";
import { useAuthSubmit } from "./use-auth-submit";

export function SignUpForm() {
  const { error, pending, disabled, onSubmit } = useAuthSubmit(
    (form, fetchOptions) =>
      authClient.signUp.email(
        {
          name: String(form.get("name")).trim(),
          email: String(form.get("email")).trim(),
          password: String(form.get("password")),
        },
        fetchOptions,
      ),
    "/onboarding",
  );

  return (
    <form className="space-y-4" onSubmit={onSubmit}>
      <div>
        <Label htmlFor="name">Name</Label>
        <Input id="name" name="name" autoComplete="name" required autoFocus placeholder="Ada Lovelace" />
      </div>
      <div>
        <Label htmlFor="email">Work email</Label>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          placeholder="you@company.com"
        />
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
      <Button type="submit" className="h-9 w-full" disabled={disabled}>
        {pending ? "Creating account…" : "Create account"}
      </Button>
    </form>
  );
}
