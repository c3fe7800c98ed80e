import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeNext } from "@/features/auth/auth-errors";
import { AuthShell } from "@/features/auth/auth-shell";
import { SignInForm } from "@/features/auth/sign-in-form";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const next = safeNext((await searchParams).next);
  if (await getViewer()) redirect(next);
  return (
    <AuthShell
      title="Sign in to Breakwater"
      subtitle="Welcome back. Your fleet has been keeping watch."
      footer={
        <>
          New here?{" "}
          <Link href="/sign-up" className="font-medium text-zinc-900 underline-offset-4 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <SignInForm next={next} />
    </AuthShell>
  );
}
