"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { Card } from "@/components/ui/page";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { EventTypeInfo } from "./format";

function Json({ value, label }: { value: unknown; label: string }) {
  const text = JSON.stringify(value, null, 2);
  return (
    <div className="relative">
      <pre
        data-testid={label === "Sample payload" ? "sample-payload" : "json-schema"}
        className="max-h-[28rem] overflow-auto rounded-md bg-zinc-900 p-3 font-mono text-[11.5px] leading-relaxed text-zinc-100"
      >
        {text}
      </pre>
      <div className="absolute top-2 right-2">
        <CopyButton value={text} tone="dark" label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

/** Every event type with its description, a sample payload and its JSON schema, each copyable. */
export function EventCatalogue({ types }: { types: EventTypeInfo[] }) {
  return (
    <div className="space-y-6">
      {types.map((t) => (
        <Card key={t.type}>
          <section aria-labelledby={`event-${t.type}`} className="px-5 py-4">
            <h2 id={`event-${t.type}`} className="font-mono text-[14px] font-semibold text-zinc-900">
              {t.type}
            </h2>
            <p className="mt-1 text-[13px] text-zinc-600">{t.description}</p>
            <Tabs defaultValue="sample" className="mt-4">
              <TabsList aria-label={`${t.type} details`}>
                <TabsTrigger value="sample">Sample payload</TabsTrigger>
                <TabsTrigger value="schema">JSON schema</TabsTrigger>
              </TabsList>
              <TabsContent value="sample" className="mt-2">
                <Json value={t.sample} label="Sample payload" />
              </TabsContent>
              <TabsContent value="schema" className="mt-2">
                <Json value={t.schema} label="JSON schema" />
              </TabsContent>
            </Tabs>
          </section>
        </Card>
      ))}
    </div>
  );
}
