// npm run generate -w client: rewrites src/openapi.ts and src/operations.ts from the current server's document.
import { writeFileSync } from 'node:fs';
import { GENERATED, generateOperations, generateTypes, OPERATIONS, serverDocument } from './document.ts';

const doc = await serverDocument();
writeFileSync(GENERATED, await generateTypes(doc));
writeFileSync(OPERATIONS, generateOperations(doc));
process.stdout.write(`wrote ${GENERATED}\nwrote ${OPERATIONS}\n`);
