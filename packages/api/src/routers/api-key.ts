import { createApiKey, listApiKeys, revokeApiKey } from "@breakwater/core";
import { z } from "zod";
import { orgProcedure, router } from "../init";

export const apiKeyRouter = router({
  /** Keys of a project of the active organization (prefixes only, never the key). */
  list: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => listApiKeys(ctx.core, input.projectId)),

  /** Mints a key; the plaintext is in this response only. Admins and up. */
  create: orgProcedure("admin")
    .input(
      z.object({
        projectId: z.string().min(1),
        name: z.string().trim().min(1, "Name is required").max(100),
        readOnly: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => createApiKey(ctx.core, input)),

  /** Revokes a key at once (SDKs using it get 401). Admins and up. */
  revoke: orgProcedure("admin")
    .input(z.object({ keyId: z.string().min(1) }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.core, input)),
});
