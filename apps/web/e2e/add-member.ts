/**
 * Test fixture, run by specs with tsx: adds an existing user to an organization with a role,
 * straight in the e2e database (the dashboard has no invitation flow to drive yet).
 *
 *   tsx e2e/add-member.ts <email> <organization name> <owner|admin|member|viewer>
 */
import { randomUUID } from "node:crypto";
import { createDb } from "@breakwater/db";
import { testHarnessEnv } from "../../../packages/config/src/test-env";

const [email, organizationName, role] = process.argv.slice(2);
if (!email || !organizationName || !["owner", "admin", "member", "viewer"].includes(role ?? "")) {
  process.stderr.write("usage: add-member.ts <email> <organization name> <owner|admin|member|viewer>\n");
  process.exit(2);
}
async function main(email: string, organizationName: string, role: string) {
  const db = createDb(testHarnessEnv().E2E_DATABASE_URL);
  try {
    const org = await db.organization.findFirstOrThrow({ where: { name: organizationName } });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    await db.member.create({ data: { id: randomUUID(), organizationId: org.id, userId: user.id, role } });
    process.stdout.write(`${JSON.stringify({ organizationId: org.id, userId: user.id, role })}\n`);
  } finally {
    await db.$disconnect();
  }
}

// This package is CommonJS to tsx: no top-level await.
main(email, organizationName, role as string).catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
