import {
  type Ctx,
  type DashboardCaller,
  type Role,
  resolveDashboardCaller,
  roleAtLeast,
} from "@breakwater/core";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import type { TrpcContext } from "./context";
import { fieldErrorsOf, toTRPCError } from "./errors";

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  // Server-sent event streams (fleet.live): pings keep proxies from closing an idle stream, and the
  // client reconnects when it hears nothing for three of them.
  sse: { ping: { enabled: true, intervalMs: 10_000 }, client: { reconnectAfterInactivityMs: 30_000 } },
  errorFormatter({ shape, error }) {
    // Unexpected failures never show their raw message or stack to the browser; the route logs them.
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      message: internal ? "Something went wrong on our side. Try again in a moment." : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        fieldErrors: internal ? undefined : fieldErrorsOf(error.cause),
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Domain and validation errors become TRPCErrors here, once for every procedure. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = toTRPCError(result.error.cause);
    if (mapped) throw mapped;
  }
  return result;
});

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(mapErrors);

/** A signed-in user; `ctx.core` is a core context acting as that user (no tenant yet). */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
  const core: Ctx = {
    ...ctx.deps,
    actor: { type: "user", userId: ctx.session.userId, isOperator: ctx.session.isOperator },
  };
  return next({ ctx: { session: ctx.session, core } });
});

/**
 * A member of the session's active organization holding at least `minRole` (operators pass, as in
 * core). `ctx.core` is scoped to that organization, so another tenant's resources are NOT_FOUND.
 */
export function orgProcedure(minRole: Role) {
  return authedProcedure.use(async ({ ctx, next }) => {
    const caller: DashboardCaller | null = await resolveDashboardCaller(ctx.deps, {
      userId: ctx.session.userId,
      activeOrganizationId: ctx.session.activeOrganizationId,
    });
    if (!caller) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
    if (!caller.organization || !caller.role) {
      throw new TRPCError({ code: "PRECONDITION_FAILED", message: "Create or join an organization first" });
    }
    if (!caller.user.isOperator && !roleAtLeast(caller.role, minRole)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `This needs the ${minRole} role or higher` });
    }
    const core: Ctx = {
      ...ctx.core,
      actor: { type: "user", userId: caller.user.id, isOperator: caller.user.isOperator },
      organizationId: caller.organization.id,
      role: caller.role,
    };
    return next({ ctx: { core, organization: caller.organization, role: caller.role } });
  });
}

/** The deployment operator only (plans, entitlements, price catalogue). */
export const operatorProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.session.isOperator) {
    throw new TRPCError({ code: "FORBIDDEN", message: "Only the operator of this installation can do that" });
  }
  return next();
});
