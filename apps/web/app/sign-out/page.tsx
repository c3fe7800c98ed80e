"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { LogoMark } from "@/components/ui/logo";
import { authClient } from "@/lib/auth-client";

/** Ends the session, then returns to the sign-in page. */
export default function SignOutPage() {
  const router = useRouter();
  useEffect(() => {
    authClient
      .signOut()
      .catch(() => undefined)
      .finally(() => {
        router.replace("/sign-in");
        router.refresh();
      });
  }, [router]);
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3 text-[13px] text-zinc-500">
      <LogoMark />
      Signing you out…
    </div>
  );
}
