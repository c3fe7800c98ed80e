import {
  archiveProject,
  createProject,
  createProjectInput,
  getProject,
  listProjects,
  updateProject,
  updateProjectInput,
} from "@breakwater/core";
import { pageQuery, paginate } from "../pagination";
import { projectResource } from "../schemas";
import { route } from "./define";

const orgOf = (ctx: { organizationId?: string }) => ctx.organizationId!;

export const projectRoutes = [
  route({
    operationId: "listProjects",
    method: "GET",
    path: "/projects",
    tag: "Projects",
    summary: "List the organization's projects",
    scope: "read",
    query: pageQuery,
    response: projectResource,
    list: true,
    handle: async ({ ctx, query }) => ({ body: paginate(await listProjects(ctx, orgOf(ctx)), query) }),
  }),
  route({
    operationId: "createProject",
    method: "POST",
    path: "/projects",
    tag: "Projects",
    summary: "Create a project with its budget mode and period limits",
    scope: "write",
    body: createProjectInput.omit({ organizationId: true }),
    response: projectResource,
    status: 201,
    handle: async ({ ctx, body }) => ({
      body: await createProject(ctx, { ...body, organizationId: orgOf(ctx) }),
    }),
  }),
  route({
    operationId: "getProject",
    method: "GET",
    path: "/projects/{projectId}",
    tag: "Projects",
    summary: "Read a project",
    scope: "read",
    response: projectResource,
    handle: async ({ ctx, params }) => ({ body: await getProject(ctx, params.projectId!) }),
  }),
  route({
    operationId: "updateProject",
    method: "PATCH",
    path: "/projects/{projectId}",
    tag: "Projects",
    summary: "Rename a project",
    scope: "write",
    body: updateProjectInput.omit({ projectId: true }),
    response: projectResource,
    handle: async ({ ctx, params, body }) => ({
      body: await updateProject(ctx, { ...body, projectId: params.projectId! }),
    }),
  }),
  route({
    operationId: "deleteProject",
    method: "DELETE",
    path: "/projects/{projectId}",
    tag: "Projects",
    summary: "Delete a project",
    description: "Its keys stop working at once; its usage history stays in the organization's reports.",
    scope: "write",
    status: 204,
    handle: async ({ ctx, params }) => {
      await archiveProject(ctx, { projectId: params.projectId! });
      return {};
    },
  }),
];
