import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { ArrowLeftIcon, DownloadIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { ApiReference } from "@/features/api-access/api-reference";
import { OPENAPI_URL } from "@/features/api-access/openapi-model";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link
            href="/settings/api-access"
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> API access
          </Link>
        }
        title="API reference"
        description="Every endpoint of the management API, from the OpenAPI document this server publishes. Clients are generated from the same document (@breakwater/client)."
        actions={
          <a href={OPENAPI_URL} download="breakwater-openapi.json" className={buttonClass("secondary", "sm")}>
            <DownloadIcon size={14} /> openapi.json
          </a>
        }
      />
      <ApiReference />
    </div>
  );
}
