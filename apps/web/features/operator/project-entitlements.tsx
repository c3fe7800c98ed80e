"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/page";
import { LoadingState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { formatFeatureValue, formatWhen } from "./format";

const LAYER: Record<string, { label: string; tone: "brand" | "amber" | "neutral" | "green" }> = {
  project_override: { label: "Project override", tone: "amber" },
  organization_override: { label: "Organization override", tone: "amber" },
  plan: { label: "Plan", tone: "brand" },
  default: { label: "Default", tone: "neutral" },
};

/** "Why this value" (read-only): each feature's effective value for the project and the layer that decided it. */
export function ProjectEntitlements({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.project.entitlements.queryOptions({ projectId }));
  return (
    <Card>
      <CardHeader
        title="Entitlements"
        description="What this project may do, and why: project override › organization override › plan › default."
      />
      <div className="p-2">
        <QueryState
          query={q}
          loading={<LoadingState label="Loading entitlements" rows={4} />}
          isEmpty={() => false}
        >
          {(e) => {
            const failover = e.features.find((f) => f.key === "failover_tuning");
            return (
              <div className="space-y-3">
                <div
                  className="rounded-md bg-zinc-50 px-4 py-3 text-[13px] text-zinc-700"
                  data-testid="failover-directive"
                >
                  SDKs of this project receive{" "}
                  <code className="font-mono text-[12px] font-semibold text-zinc-900">
                    failover_tuning_allowed: {String(e.failoverDirective.failover_tuning_allowed)}
                  </code>
                  {failover ? (
                    <>
                      {" "}
                      — decided by <strong>{failover.decidedBy}</strong>
                      {failover.since ? <>, since {formatWhen(failover.since)}</> : null}.
                    </>
                  ) : null}
                </div>
                <Table aria-label="Entitlements">
                  <TableHeader>
                    <TableRow>
                      <TableHead>Feature</TableHead>
                      <TableHead>Value</TableHead>
                      <TableHead>Decided by</TableHead>
                      <TableHead>Since</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {e.features.map((f) => (
                      <TableRow key={f.key} data-testid={`entitlement-${f.key}`}>
                        <TableCell className="font-mono text-[12px]">{f.key}</TableCell>
                        <TableCell>{formatFeatureValue(f.type, f.value)}</TableCell>
                        <TableCell>
                          <Badge tone={LAYER[f.layer]?.tone ?? "neutral"}>
                            {LAYER[f.layer]?.label ?? f.layer}
                          </Badge>{" "}
                          <span className="text-zinc-600">{f.decidedBy}</span>
                        </TableCell>
                        <TableCell className="whitespace-nowrap text-zinc-500">
                          {formatWhen(f.since)}
                          {f.expiresAt ? (
                            <span className="block text-[11px]">until {formatWhen(f.expiresAt)}</span>
                          ) : null}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            );
          }}
        </QueryState>
      </div>
    </Card>
  );
}
