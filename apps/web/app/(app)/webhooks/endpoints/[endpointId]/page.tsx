import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { EndpointDetail } from "@/features/webhooks/endpoint-detail";
import { webhookPageContext } from "@/features/webhooks/page-data";
import { WebhooksNav } from "@/features/webhooks/webhooks-nav";
import { getCaller, getOrgViewer, getQueryClient, HydrateClient, isTRPCCode, trpc } from "@/lib/trpc/server";

type Props = { params: Promise<{ endpointId: string }> };

export const metadata: Metadata = { title: "Webhook endpoint" };

export default async function EndpointPage({ params }: Props) {
  await getOrgViewer();
  const endpointId = decodeURIComponent((await params).endpointId);
  const { canManage } = await webhookPageContext();
  let endpoint: Awaited<ReturnType<Awaited<ReturnType<typeof getCaller>>["webhooks"]["getEndpoint"]>>;
  try {
    endpoint = await (await getCaller()).webhooks.getEndpoint({ endpointId });
  } catch (err) {
    // Another tenant's endpoint and a missing one look the same.
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
  getQueryClient().setQueryData(trpc.webhooks.getEndpoint.queryKey({ endpointId }), endpoint);
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link
            href="/webhooks"
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> Endpoints
          </Link>
        }
        title={<span className="block truncate font-mono text-[17px]">{endpoint.url}</span>}
        description={endpoint.description || "No description"}
      />
      <WebhooksNav />
      <HydrateClient>
        <EndpointDetail endpointId={endpointId} canManage={canManage} />
      </HydrateClient>
    </div>
  );
}
