import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page";
import { PricesNav } from "./prices-nav";

/** The frame of every price catalogue page: header, section links, content. */
export function PricesPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={<Badge tone="brand">Operator</Badge>}
        title={title}
        description={description}
        actions={actions}
      />
      <PricesNav />
      {children}
    </div>
  );
}
