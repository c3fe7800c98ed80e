// Writes src/generated/openapi.ts from packages/manage/openapi.json. Run it whenever that document
// changes (`npm run -s -w @breakwater/client generate`); the drift test fails until then.
import { writeFileSync } from "node:fs";
import { generateTypes, TYPES_PATH } from "../src/codegen";

writeFileSync(TYPES_PATH, await generateTypes());
process.stdout.write(`wrote ${TYPES_PATH.pathname}\n`);
