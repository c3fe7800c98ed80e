"use client";

import { Accordion as AccordionPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";
import { ChevronDownIcon } from "./icons";

/**
 * Accordion (Radix): each trigger is a button in a heading that says whether its panel is open
 * (`aria-expanded`); arrow keys, Home and End move between triggers.
 */
export const Accordion = AccordionPrimitive.Root;

export function AccordionItem({ className, ...props }: ComponentProps<typeof AccordionPrimitive.Item>) {
  return (
    <AccordionPrimitive.Item
      className={cn("border-b border-zinc-100 last:border-b-0", className)}
      {...props}
    />
  );
}

export function AccordionTrigger({
  className,
  children,
  ...props
}: ComponentProps<typeof AccordionPrimitive.Trigger>) {
  return (
    <AccordionPrimitive.Header className="flex">
      <AccordionPrimitive.Trigger
        className={cn(
          "group flex min-w-0 flex-1 items-center gap-3 px-5 py-3 text-left text-[13px] transition-colors hover:bg-zinc-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500",
          className,
        )}
        {...props}
      >
        {children}
        <ChevronDownIcon
          size={15}
          className="ml-auto shrink-0 text-zinc-400 transition-transform group-data-[state=open]:rotate-180"
        />
      </AccordionPrimitive.Trigger>
    </AccordionPrimitive.Header>
  );
}

export function AccordionContent({
  className,
  children,
  ...props
}: ComponentProps<typeof AccordionPrimitive.Content>) {
  return (
    <AccordionPrimitive.Content className={cn("px-5 pt-1 pb-5", className)} {...props}>
      {children}
    </AccordionPrimitive.Content>
  );
}
