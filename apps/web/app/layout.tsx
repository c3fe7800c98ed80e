import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "@/lib/trpc/client";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Breakwater", template: "%s · Breakwater" },
  description: "The control plane for in-process LLM failover: budgets, breakers, fleet health.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="min-h-dvh font-sans text-sm">
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
