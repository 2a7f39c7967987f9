// `node src/main.ts` as a real process for tests that watch what a person running it sees: its output
// (bootstrap token, setup link, log lines) and its exit.
import { type ChildProcess, spawn } from 'node:child_process';

const root = new URL('../..', import.meta.url).pathname;

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** The bootstrap token the first start printed, or '' when it printed none. */
  token: string;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | null>;
}

const LISTENING = /Server listening at (http:\/\/\S+?)"/;

/** Starts the server with this environment (PORT 0 unless given) and resolves once it listens. */
export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: { PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!LISTENING.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = LISTENING.exec(out)![1]!;
  const token = /Bootstrap API token: (\S+)/.exec(out)?.[1] ?? '';
  return { child, url, token, output: () => out, exited };
}
