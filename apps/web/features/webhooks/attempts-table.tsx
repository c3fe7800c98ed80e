import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { type Attempt, formatDateTime } from "./format";

/** Every attempt of one delivery: time, trigger, status code, latency, response excerpt. */
export function AttemptsTable({ attempts, label }: { attempts: Attempt[]; label: string }) {
  if (attempts.length === 0) return <p className="px-1 py-2 text-xs text-zinc-500">No attempt yet.</p>;
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>#</TableHead>
          <TableHead>Time</TableHead>
          <TableHead>Result</TableHead>
          <TableHead>Status code</TableHead>
          <TableHead>Latency</TableHead>
          <TableHead>Response</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {attempts.map((a) => (
          <TableRow key={a.id} data-testid="attempt-row">
            <TableCell className="text-zinc-500 tabular-nums">{a.attemptNumber}</TableCell>
            <TableCell className="whitespace-nowrap text-zinc-600">
              {formatDateTime(a.startedAt)}
              {a.trigger !== "scheduled" ? (
                <Badge tone="brand" className="ml-1.5">
                  {a.trigger}
                </Badge>
              ) : null}
            </TableCell>
            <TableCell>
              {a.success ? <Badge tone="green">Succeeded</Badge> : <Badge tone="red">Failed</Badge>}
            </TableCell>
            <TableCell className="font-mono text-[12px] tabular-nums">{a.responseStatus ?? "—"}</TableCell>
            <TableCell className="whitespace-nowrap tabular-nums">
              {a.latencyMs === null ? "—" : `${a.latencyMs} ms`}
            </TableCell>
            <TableCell className="max-w-72">
              <span className="line-clamp-2 font-mono text-[11.5px] break-all text-zinc-600">
                {a.error ?? a.responseSnippet ?? "—"}
              </span>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
