import {
  createManagementKey,
  createManagementKeyInput,
  listManagementKeys,
  revokeManagementKey,
  revokeManagementKeyInput,
} from "@breakwater/core";
import { operatorProcedure, orgProcedure, router } from "../init";

/** Management API keys (/api/manage/v1): an organization's (owners and admins) and the installation's (operators). */
export const managementKeyRouter = router({
  /** The active organization's read and write keys, newest first, revoked ones included. Admins and up. */
  list: orgProcedure("admin").query(({ ctx }) => listManagementKeys(ctx.core, { owner: "organization" })),

  /** Mints a read or write key of the active organization; the plaintext is in this response only. Admins and up. */
  create: orgProcedure("admin")
    .input(
      createManagementKeyInput.extend({ scope: createManagementKeyInput.shape.scope.exclude(["operator"]) }),
    )
    .mutation(({ ctx, input }) => createManagementKey(ctx.core, input)),

  /** Revokes one of the active organization's keys at once. Admins and up. */
  revoke: orgProcedure("admin")
    .input(revokeManagementKeyInput)
    .mutation(({ ctx, input }) => revokeManagementKey(ctx.core, input)),

  /** The installation's operator keys. Operators only. */
  operatorList: operatorProcedure.query(({ ctx }) => listManagementKeys(ctx.core, { owner: "operator" })),

  /** Mints an operator key (plans, organizations' plans, overrides, price cards). Operators only. */
  operatorCreate: operatorProcedure
    .input(createManagementKeyInput.omit({ scope: true }))
    .mutation(({ ctx, input }) => createManagementKey(ctx.core, { ...input, scope: "operator" })),

  /** Revokes an operator key. Operators only. */
  operatorRevoke: operatorProcedure
    .input(revokeManagementKeyInput)
    .mutation(({ ctx, input }) => revokeManagementKey(ctx.core, input)),
});
