import { checkOperatorSetupToken, redeemOperatorSetupToken } from "@breakwater/core";
import { z } from "zod";
import { authedProcedure, publicProcedure, router } from "../init";

const tokenInput = z.object({ token: z.string().min(1).max(200) });

/**
 * The one-time operator setup link (`npm start` prints it while no operator exists): anyone may
 * ask whether a link is still good; redeeming it makes the signed-in account the operator.
 */
export const setupRouter = router({
  status: publicProcedure
    .input(tokenInput)
    .query(async ({ ctx, input }) => ({ state: await checkOperatorSetupToken(ctx.deps, input.token) })),
  redeem: authedProcedure.input(tokenInput).mutation(async ({ ctx, input }) => {
    await redeemOperatorSetupToken(ctx.deps, { token: input.token, userId: ctx.session.userId });
    return { ok: true as const };
  }),
});
