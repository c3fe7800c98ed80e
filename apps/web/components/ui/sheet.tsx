"use client";

import { Dialog as SheetPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/cn";
import { XIcon } from "./icons";

/**
 * A panel that slides in from an edge (a Radix Dialog: modal, focus trapped, Escape closes and
 * focus returns to the trigger). The phone navigation lives in one.
 */
export const Sheet = SheetPrimitive.Root;
export const SheetTrigger = SheetPrimitive.Trigger;
export const SheetClose = SheetPrimitive.Close;

const sides = {
  left: "inset-y-0 left-0 h-dvh w-72 max-w-[85vw] border-r",
  right: "inset-y-0 right-0 h-dvh w-96 max-w-[90vw] border-l",
  bottom: "inset-x-0 bottom-0 max-h-[85dvh] border-t rounded-t-xl",
} as const;

export function SheetContent({
  side = "left",
  className,
  children,
  ...props
}: ComponentProps<typeof SheetPrimitive.Content> & { side?: keyof typeof sides }) {
  return (
    <SheetPrimitive.Portal>
      <SheetPrimitive.Overlay className="fixed inset-0 z-50 bg-zinc-950/40" />
      <SheetPrimitive.Content
        className={cn(
          "fixed z-50 flex flex-col overflow-y-auto border-zinc-200 bg-white shadow-xl focus:outline-none",
          sides[side],
          className,
        )}
        {...props}
      >
        {children}
        <SheetPrimitive.Close
          className="absolute top-3.5 right-3 rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700 focus-visible:outline-2 focus-visible:outline-brand-500"
          aria-label="Close"
        >
          <XIcon size={16} />
        </SheetPrimitive.Close>
      </SheetPrimitive.Content>
    </SheetPrimitive.Portal>
  );
}

export function SheetTitle({ className, ...props }: ComponentProps<typeof SheetPrimitive.Title>) {
  return (
    <SheetPrimitive.Title className={cn("text-[15px] font-semibold text-zinc-900", className)} {...props} />
  );
}

export function SheetDescription({ className, ...props }: ComponentProps<typeof SheetPrimitive.Description>) {
  return <SheetPrimitive.Description className={cn("text-[13px] text-zinc-500", className)} {...props} />;
}

export function SheetHeader({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn("flex flex-col gap-1 p-4 pr-10", className)}>{children}</div>;
}
