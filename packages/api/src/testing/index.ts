// Fixtures shared by the dashboard API's integration tests (real Postgres and Redis; no mocks).
import { randomUUID } from "node:crypto";
import { parseConfig, processEnv } from "@breakwater/config";
import { createDeps, type Deps } from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { type Auth, createAuth } from "../auth/create-auth";
import { createContext } from "../context";
import { createCaller } from "../root";

export interface ApiTestEnv {
  deps: Deps;
  auth: Auth;
  /** Signs a fresh user up through better-auth; `caller()` is a tRPC caller with their session. */
  signUp(name: string): Promise<{
    userId: string;
    email: string;
    headers: Headers;
    caller: () => Promise<ReturnType<typeof createCaller>>;
  }>;
  close(): Promise<void>;
}

/** Deps and a better-auth instance on the test database (from the vitest env). */
export function apiTestEnv(name = "api-test"): ApiTestEnv {
  const deps = createDeps(parseConfig(processEnv()), name);
  const auth = createAuth(deps);
  return {
    deps,
    auth,
    async signUp(who) {
      const email = `${who.toLowerCase()}-${randomUUID()}@example.test`;
      const res = await auth.api.signUpEmail({
        body: { email, name: who, password: "correct horse battery" },
        returnHeaders: true,
      });
      const token = /better-auth\.session_token=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
      if (!token) throw new Error("sign-up set no session cookie");
      const headers = new Headers({ cookie: `better-auth.session_token=${token}` });
      const caller = async () => createCaller(await createContext({ deps, auth, headers }));
      return { userId: res.response.user.id, email, headers, caller };
    },
    close: () => deps.db.$disconnect(),
  };
}

/** "ok" when `p` resolves, the TRPCError code when it rejects with one, else a description. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => "ok",
    (e: unknown) => (e instanceof TRPCError ? e.code : `no TRPCError (${String(e)})`),
  );
}
