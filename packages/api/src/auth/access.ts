import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements, memberAc, ownerAc } from "better-auth/plugins/organization/access";

/**
 * What each organization role may do. better-auth enforces it on its own organization endpoints
 * (members, invitations); Breakwater's use cases enforce the same ladder through core's requireRole.
 */
export const statements = {
  ...defaultStatements,
  project: ["create", "update", "delete"],
  apiKey: ["create", "revoke"],
  rule: ["create", "update", "delete"],
  webhook: ["create", "update", "delete"],
  billing: ["update"],
} as const;

export const ac = createAccessControl(statements);

/** owner > admin > member > viewer, as product.md describes them. */
export const roles = {
  owner: ac.newRole({
    ...ownerAc.statements,
    project: ["create", "update", "delete"],
    apiKey: ["create", "revoke"],
    rule: ["create", "update", "delete"],
    webhook: ["create", "update", "delete"],
    billing: ["update"],
  }),
  admin: ac.newRole({
    ...adminAc.statements,
    project: ["create", "update", "delete"],
    apiKey: ["create", "revoke"],
    rule: ["create", "update", "delete"],
    webhook: ["create", "update", "delete"],
  }),
  member: ac.newRole({ ...memberAc.statements, rule: ["create", "update", "delete"] }),
  // Viewers read: no write permission on any resource.
  viewer: ac.newRole({ organization: [], member: [], invitation: [], team: [], ac: ["read"] }),
};
