import type { AppRouter } from "@breakwater/api";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type Viewer = NonNullable<Outputs["me"]["get"]>;
export type Membership = Outputs["organization"]["listMine"][number];
export type Project = Outputs["project"]["list"][number];
export type ApiKey = Outputs["apiKey"]["list"][number];
