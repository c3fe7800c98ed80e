import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthShell } from "@/features/auth/auth-shell";
import { SignUpForm } from "@/features/auth/sign-up-form";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignUpPage() {
  if (await getViewer()) redirect("/");
  return (
    <AuthShell
      title="Create your account"
      subtitle="Set up budgets and breaker alerts for your LLM traffic in a few minutes."
      footer={
        <>
          Already have an account?{" "}
          <Link href="/sign-in" className="font-medium text-zinc-900 underline-offset-4 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm />
    </AuthShell>
  );
}
