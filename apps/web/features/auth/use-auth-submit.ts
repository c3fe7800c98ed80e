"use client";

import { type FormEvent, useState } from "react";
import { useMounted } from "@/lib/use-mounted";
import { authErrorMessage } from "./auth-errors";

/** Passed to the better-auth client call, to read a 429's X-Retry-After. */
export interface AuthFetchOptions {
  onError: (context: { response: Response }) => void;
}

type AuthFailure = { code?: string; message?: string; status?: number };

/**
 * The submit flow shared by the sign-in and sign-up forms: one request at a time, the error as a
 * sentence (with the wait of a 429), and on success a full load of `destination`, so every server
 * component and client cache starts from the new session.
 */
export function useAuthSubmit(
  submit: (form: FormData, fetchOptions: AuthFetchOptions) => Promise<{ error: AuthFailure | null }>,
  destination: string,
) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const mounted = useMounted();

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    let retryAfter: number | null = null;
    const fetchOptions: AuthFetchOptions = {
      onError: ({ response }) => {
        retryAfter = Number(response.headers.get("x-retry-after")) || null;
      },
    };
    try {
      const { error: failure } = await submit(form, fetchOptions);
      if (failure) {
        setError(authErrorMessage(failure, retryAfter));
        setPending(false);
        return;
      }
      window.location.assign(destination);
    } catch {
      setError("Cannot reach Breakwater. Check your connection and try again.");
      setPending(false);
    }
  };

  return { error, pending, disabled: pending || !mounted, onSubmit };
}
