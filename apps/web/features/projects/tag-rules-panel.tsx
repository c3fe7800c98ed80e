"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { PlusIcon, ShieldIcon, TrashIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, QueryState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorInfo } from "@/features/operator/format";
import { FieldError } from "@/features/operator/plans-console";
import { useTRPC } from "@/lib/trpc/client";
import { firstError } from "./budget-settings-form";
import { formatUsd } from "./format";

type Period = "daily" | "weekly" | "monthly";
interface TagRule {
  id: string;
  name: string;
  selector: Record<string, string>;
  period: Period;
  limitUsd: number;
  enabled: boolean;
}

/** "team=search, env=prod" → {team: "search", env: "prod"}; a pair without "=" keeps an empty value for the server to refuse. */
function parseSelector(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(",")) {
    const t = part.trim();
    if (!t) continue;
    const i = t.indexOf("=");
    if (i < 0) out[t] = "";
    else out[t.slice(0, i).trim()] = t.slice(i + 1).trim();
  }
  return out;
}

const PER: Record<Period, string> = { daily: "day", weekly: "week", monthly: "month" };

const selectorText = (s: Record<string, string>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");

/** Tag rules: checks whose tags match a selector get their own period limit. Members edit; viewers read. */
export function TagRulesPanel({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.budget.settings.queryOptions({ projectId }));
  const [editing, setEditing] = useState<TagRule | "new" | null>(null);
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.budget.settings.queryKey({ projectId }) });
  const remove = useMutation(trpc.budget.deleteTagRule.mutationOptions({ onSuccess: invalidate }));

  return (
    <section data-testid="tag-rules" aria-label="Tag rules">
      <Card>
        <CardHeader
          title="Tag rules"
          description="Checks whose tags include every selector pair are limited to the rule's amount per period."
          actions={
            canManage ? (
              <Button variant="secondary" size="sm" onClick={() => setEditing("new")}>
                <PlusIcon size={13} /> Add rule
              </Button>
            ) : null
          }
        />
        <QueryState
          query={settings}
          isEmpty={(d) => d.tagRules.length === 0}
          empty={
            <EmptyState
              className="m-5"
              icon={<ShieldIcon size={18} />}
              title="No tag rules"
              description="Add one to cap the spend of tagged traffic, e.g. team=search at $20 a day."
            />
          }
        >
          {(data) => (
            <Table aria-label="Tag rules">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Selector</TableHead>
                  <TableHead>Limit</TableHead>
                  <TableHead>Status</TableHead>
                  {canManage ? <TableHead className="text-right">Actions</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.tagRules.map((r) => (
                  <TableRow key={r.id} data-testid="tag-rule-row">
                    <TableCell className="font-medium text-zinc-900">{r.name}</TableCell>
                    <TableCell className="font-mono text-[12px]">{selectorText(r.selector)}</TableCell>
                    <TableCell className="tabular-nums whitespace-nowrap">
                      {formatUsd(r.limitUsd)} per {PER[r.period]}
                    </TableCell>
                    <TableCell>
                      {r.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}
                    </TableCell>
                    {canManage ? (
                      <TableCell className="text-right whitespace-nowrap">
                        <Button variant="ghost" size="sm" onClick={() => setEditing(r)}>
                          Edit
                        </Button>
                        <ConfirmDialog
                          trigger={
                            <Button variant="ghost" size="sm" aria-label={`Delete rule ${r.name}`}>
                              <TrashIcon size={13} />
                            </Button>
                          }
                          title={`Delete rule “${r.name}”?`}
                          description="Checks matching its selector are then judged by the project limits only."
                          confirmLabel="Delete rule"
                          onConfirm={() => remove.mutate({ projectId, ruleId: r.id })}
                        />
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
        <Dialog open={editing !== null} onOpenChange={(o) => !o && setEditing(null)}>
          {editing !== null ? (
            <TagRuleDialog
              projectId={projectId}
              rule={editing === "new" ? null : editing}
              onDone={async () => {
                setEditing(null);
                await invalidate();
              }}
            />
          ) : null}
        </Dialog>
      </Card>
    </section>
  );
}

function TagRuleDialog({
  projectId,
  rule,
  onDone,
}: {
  projectId: string;
  rule: TagRule | null;
  onDone: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const [period, setPeriod] = useState<Period>(rule?.period ?? "daily");
  const save = useMutation(trpc.budget.saveTagRule.mutationOptions({ onSuccess: onDone }));
  const { message, fieldErrors } = errorInfo(save.error);
  const title = rule ? "Edit tag rule" : "Add tag rule";
  return (
    <DialogContent aria-describedby="tag-rule-help">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription id="tag-rule-help">
          The rule applies to checks whose tags contain every name=value pair of its selector.
        </DialogDescription>
      </DialogHeader>
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const limit = String(form.get("limit") ?? "").trim();
          save.mutate({
            projectId,
            ruleId: rule?.id,
            name: String(form.get("name") ?? ""),
            selector: parseSelector(String(form.get("selector") ?? "")),
            period,
            limitUsd: limit === "" ? Number.NaN : Number(limit),
            enabled: form.get("enabled") === "on",
          });
        }}
      >
        <div>
          <Label htmlFor="rule-name">Rule name</Label>
          <Input id="rule-name" name="name" defaultValue={rule?.name ?? ""} placeholder="search team" />
          <FieldError message={fieldErrors.name} />
        </div>
        <div data-testid="field-selector">
          <Label htmlFor="rule-selector">Selector tags</Label>
          <Input
            id="rule-selector"
            name="selector"
            defaultValue={rule ? selectorText(rule.selector) : ""}
            placeholder="team=search, env=prod"
          />
          <FieldError message={firstError(fieldErrors, "selector")} />
          <Hint>Comma-separated name=value pairs (at most 10).</Hint>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="rule-period">Period</Label>
            <Select value={period} onValueChange={(v) => setPeriod(v as Period)}>
              <SelectTrigger id="rule-period" aria-label="Period">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="daily">Daily</SelectItem>
                <SelectItem value="weekly">Weekly</SelectItem>
                <SelectItem value="monthly">Monthly</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div>
            <Label htmlFor="rule-limit">Rule limit (USD)</Label>
            <Input
              id="rule-limit"
              name="limit"
              inputMode="decimal"
              defaultValue={rule ? String(rule.limitUsd) : ""}
              placeholder="20"
            />
            <FieldError message={fieldErrors.limitUsd} />
          </div>
        </div>
        <label className="flex items-center gap-2 text-[13px] text-zinc-800">
          <input
            type="checkbox"
            name="enabled"
            defaultChecked={rule?.enabled ?? true}
            className="accent-brand-600"
          />
          Enabled
        </label>
        {/* Field messages stand beside their fields; the summary only points at them. */}
        <FormError
          message={Object.keys(fieldErrors).length > 0 ? "Check the highlighted fields." : message}
        />
        <DialogFooter>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : rule ? "Save rule" : "Add rule"}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
