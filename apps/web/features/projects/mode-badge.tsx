import { Badge } from "@/components/ui/badge";
import { MODE_LABEL } from "./format";

export function ModeBadge({ mode }: { mode: "alert_only" | "hard_deny" }) {
  return <Badge tone={mode === "hard_deny" ? "amber" : "neutral"}>{MODE_LABEL[mode]}</Badge>;
}
