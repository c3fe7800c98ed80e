"use client";

import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { RefreshIcon, UsageIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatClock } from "@/features/usage/format";
import { useTRPC } from "@/lib/trpc/client";

const tokens = new Intl.NumberFormat("en-US");

/**
 * The project's live run leases: which SDK holder holds which run's budget tokens, at which
 * generation, how much of the grant it has drawn, and when the lease lapses without a renewal.
 */
export function ActiveLeases({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const leases = useQuery({ ...trpc.lease.listActive.queryOptions({ projectId }), refetchInterval: 15_000 });
  return (
    <Card>
      <CardHeader
        title="Active leases"
        description="Agent runs draw budget tokens from leases the SDK renews about every 30 s; an unrenewed lease lapses after 2 minutes and its claim returns to the budget."
        actions={
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void leases.refetch()}
            disabled={leases.isFetching}
          >
            <RefreshIcon size={13} /> Refresh
          </Button>
        }
      />
      <div className="p-5">
        <QueryState
          query={leases}
          errorTitle="Could not load the active leases"
          empty={
            <EmptyState
              icon={<UsageIcon size={18} />}
              title="No active leases"
              description="Leases appear while an SDK runs an agent loop (calls inside an agent run) against this project."
            />
          }
        >
          {(rows) => (
            <Table aria-label="Active leases">
              <TableHeader>
                <TableRow>
                  <TableHead>Holder</TableHead>
                  <TableHead>Run</TableHead>
                  <TableHead className="text-right">Generation</TableHead>
                  <TableHead className="text-right">Granted</TableHead>
                  <TableHead className="text-right">Drawn</TableHead>
                  <TableHead>Expires</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((l) => (
                  <TableRow key={l.leaseId}>
                    <TableCell className="font-mono text-[12px]">{l.holderId || "—"}</TableCell>
                    <TableCell className="max-w-48 truncate font-mono text-[12px]" title={l.agentRunId}>
                      {l.agentRunId}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{l.generation}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {tokens.format(l.grantedTokens)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{tokens.format(l.drawnTokens)}</TableCell>
                    <TableCell className="whitespace-nowrap tabular-nums">
                      {/* In UTC: the server's render and the browser's must read the same. */}
                      <time dateTime={new Date(l.expiresAt).toISOString()}>
                        {formatClock(new Date(l.expiresAt).toISOString())}
                      </time>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </div>
    </Card>
  );
}
