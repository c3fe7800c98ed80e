import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Joins class names (clsx: strings, arrays, `{ class: condition }`), then lets the last of two
 * conflicting Tailwind classes win (tailwind-merge), so `cn("px-2", props.className)` can be
 * overridden by the caller instead of resolving by stylesheet order.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
