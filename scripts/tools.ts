// The machine's own programs some tests drive (promtool, Chromium): installed from Debian's
// packages when missing and this runs as root with apt-get (a fresh machine, CI), otherwise one line
// saying what to install. Run by `npm test` before the suite and by `.ci/run`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Program → the Debian package that brings it. */
const TOOLS: [program: string, pkg: string][] = [
  ['/usr/bin/promtool', 'prometheus'],
  // The web app's browser tests (web/test/browser.test.ts).
  ['/usr/bin/chromium', 'chromium'],
];

function apt(args: string[]): boolean {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return run.status === 0;
}

export function ensureTools(): void {
  const missing = TOOLS.filter(([program]) => !existsSync(program));
  if (missing.length === 0) return;
  const packages = missing.map(([, pkg]) => pkg);
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (canInstall) {
    process.stdout.write(`# installing ${packages.join(', ')} (apt-get) for the tests that drive them\n`);
    const done =
      apt(['install', '-y', ...packages]) || (apt(['update']) && apt(['install', '-y', ...packages]));
    if (done && missing.every(([program]) => existsSync(program))) return;
  }
  process.stderr.write(
    `tests need ${missing.map(([program]) => program).join(', ')}: install the Debian package(s) ${packages.join(', ')} (apt-get install ${packages.join(' ')})\n`,
  );
  process.exit(1);
}

if (import.meta.main) ensureTools();
