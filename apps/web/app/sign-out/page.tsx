"use client";

import { useEffect } from "react";
import { LogoMark } from "@/components/ui/logo";
import { authClient } from "@/lib/auth-client";

/** Ends the session, then returns to the sign-in page. */
export default function SignOutPage() {
  useEffect(() => {
    authClient
      .signOut()
      .catch(() => undefined)
      .finally(() => window.location.replace("/sign-in"));
  }, []);
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3 text-[13px] text-zinc-500">
      <LogoMark />
      Signing you out…
    </div>
  );
}
