import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { cn } from "@/lib/cn";
import { AlertIcon } from "./icons";

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block text-[13px] font-medium text-zinc-800">
      {children}
    </label>
  );
}

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <input
      className={cn(
        "block h-9 w-full rounded-md border border-zinc-200 bg-white px-3 text-[13px] text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-brand-500 focus:ring-3 focus:ring-brand-100 focus:outline-none disabled:bg-zinc-50",
        className,
      )}
      {...props}
    />
  );
}

export function Hint({ children }: { children: ReactNode }) {
  return <p className="mt-1.5 text-xs text-zinc-500">{children}</p>;
}

/** A form-level error, announced to screen readers. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      data-testid="form-error"
      className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-[13px] text-red-700"
    >
      <AlertIcon size={15} className="mt-px shrink-0" />
      <span>{message}</span>
    </div>
  );
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      className={cn(
        "block min-h-20 w-full rounded-md border border-zinc-200 bg-white px-3 py-2 font-mono text-[12px] text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-brand-500 focus:ring-3 focus:ring-brand-100 focus:outline-none disabled:bg-zinc-50",
        className,
      )}
      {...props}
    />
  );
}
