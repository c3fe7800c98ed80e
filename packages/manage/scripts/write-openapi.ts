// Writes packages/manage/openapi.json from the route table: the published contract that clients
// are generated from. The drift test (src/openapi.test.ts) fails until this is re-run after a
// route or schema changes.
import { writeFileSync } from "node:fs";
import { openApiDocument } from "../src/openapi";

const out = new URL("../openapi.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${out.pathname}\n`);
