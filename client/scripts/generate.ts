// npm run generate -w client: rewrites src/openapi.ts from the current server's document.
import { writeFileSync } from 'node:fs';
import { GENERATED, generateTypes, serverDocument } from './document.ts';

writeFileSync(GENERATED, await generateTypes(await serverDocument()));
process.stdout.write(`wrote ${GENERATED}\n`);
