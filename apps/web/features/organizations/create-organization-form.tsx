"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button, ButtonLink } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { useTRPC } from "@/lib/trpc/client";
import { useMounted } from "@/lib/use-mounted";

/** Creates an organization (free plan, caller as owner), makes it active, and opens its projects. */
export function CreateOrganizationForm({ cancelHref }: { cancelHref?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const mounted = useMounted();
  const create = useMutation(
    trpc.organization.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries();
        router.replace("/projects");
        router.refresh();
      },
    }),
  );
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name: String(new FormData(e.currentTarget).get("name") ?? "") });
      }}
    >
      <div>
        <Label htmlFor="org-name">Organization name</Label>
        <Input id="org-name" name="name" required maxLength={100} autoFocus placeholder="Acme Inc." />
        <Hint>Usually your company or team. You can invite people once it exists.</Hint>
      </div>
      <FormError message={create.error?.message} />
      <div className="flex items-center gap-2">
        <Button
          type="submit"
          className="h-9 flex-1"
          disabled={!mounted || create.isPending || create.isSuccess}
        >
          {create.isPending || create.isSuccess ? "Creating…" : "Create organization"}
        </Button>
        {cancelHref ? (
          <ButtonLink href={cancelHref} variant="secondary" className="h-9">
            Cancel
          </ButtonLink>
        ) : null}
      </div>
    </form>
  );
}
