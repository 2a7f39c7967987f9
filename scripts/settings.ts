// `npm run settings`: writes README.md's table of settings and .env.example from src/settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { envExample, settingsTable } from '../src/settings.ts';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(`${root}README.md`, 'utf8');
const start = readme.indexOf('| variable | default | meaning |');
const end = readme.indexOf('\n\n', start);
writeFileSync(`${root}README.md`, `${readme.slice(0, start)}${settingsTable()}${readme.slice(end)}`);
writeFileSync(`${root}.env.example`, envExample());
process.stdout.write('wrote README.md (settings) and .env.example\n');
