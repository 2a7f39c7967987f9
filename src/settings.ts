// Every setting Cairn reads from the environment, with its default and meaning: the one list that
// README.md's table and .env.example are written from (`npm run settings`), and that src/settings.test.ts
// holds to what config.ts parses (every variable it reads is here, and each default is what it gives).
export interface Setting {
  name: string;
  /** As a person reads it (Markdown): a value in backquotes, or a word such as none or random. */
  default: string;
  /** What it does (Markdown). */
  meaning: string;
}

export const SETTINGS: Setting[] = [
  {
    name: 'HOST',
    default: '`127.0.0.1`',
    meaning: 'address to listen on',
  },
  {
    name: 'PORT',
    default: '`8080`',
    meaning: 'port to listen on (`0`: any free port)',
  },
  {
    name: 'DATABASE_URL',
    default: 'the file `./data/cairn.db`',
    meaning: '`file:<path>` for SQLite (WAL), `postgres://user@host/db` for PostgreSQL',
  },
  {
    name: 'LOG_LEVEL',
    default: '`info`',
    meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON lines',
  },
  {
    name: 'CAIRN_BOOTSTRAP_TOKEN',
    default: 'random',
    meaning: "the first owner's API token on an empty database (32+ characters)",
  },
  {
    name: 'CAIRN_PUBLIC_URL',
    default: '`http://HOST:PORT`',
    meaning: "the public base URL (the OpenAPI `servers`, and posts' `entityUrl` and `postUrl`)",
  },
  {
    name: 'CAIRN_WEBHOOK_ALLOW_PRIVATE',
    default: '`false`',
    meaning: '`true` lets webhooks reach loopback and private addresses (receivers on your own network)',
  },
  {
    name: 'CAIRN_WEBHOOK_RETENTION_DAYS',
    default: '`7`',
    meaning: 'days events (the feed) and delivery attempts are kept',
  },
  {
    name: 'CAIRN_WEBHOOK_WORKER',
    default: '`true`',
    meaning: 'deliver webhooks from the server process; `false` when `cairn worker` runs elsewhere',
  },
  {
    name: 'CAIRN_WEBHOOK_CONCURRENCY',
    default: '`16`',
    meaning: 'subscriptions one process delivers to at once',
  },
  {
    name: 'CAIRN_REQUEST_TIMEOUT_MS',
    default: '`60000`',
    meaning:
      'the longest a client may take to send a whole request, headers and body (`400` and the connection closed beyond it; `0`: no limit)',
  },
  {
    name: 'CAIRN_RATE_LIMIT',
    default: '`1000`',
    meaning: 'requests a minute per API token (`429 rate_limited` beyond it)',
  },
  {
    name: 'CAIRN_RATE_LIMIT_UNAUTHENTICATED',
    default: '`100`',
    meaning: 'requests a minute per client address without a valid token',
  },
  {
    name: 'CAIRN_RATE_LIMIT_SEARCH',
    default: '`300`',
    meaning: 'text searches a minute per API token, a budget of their own',
  },
  {
    name: 'CAIRN_SIGN_IN_ACCOUNT_FAILURES',
    default: '`10`',
    meaning: 'failed sign-ins for one email before it is locked out (`429`)',
  },
  {
    name: 'CAIRN_SIGN_IN_ADDRESS_FAILURES',
    default: '`100`',
    meaning: 'failed sign-ins from one client address before it is locked out',
  },
  {
    name: 'CAIRN_SIGN_IN_LOCKOUT_SECONDS',
    default: '`900`',
    meaning: 'the window failures are counted in, and how long a lockout lasts after the last one',
  },
  {
    name: 'CAIRN_SMTP_URL',
    default: 'none',
    meaning:
      '`smtp://user:password@host:587` or `smtps://\u2026:465`: invitation and password-reset mails are sent ([`docs/deployment.md`](docs/deployment.md#mail)); without it the owner passes links on',
  },
  {
    name: 'CAIRN_MAIL_FROM',
    default: '`Cairn <no-reply@<public host>>`',
    meaning: "the mails' `From`",
  },
  {
    name: 'CAIRN_TRUST_PROXY',
    default: '`false`',
    meaning:
      'the proxies whose `X-Forwarded-For` gives the client address (addresses and CIDR ranges, comma-separated, or `true` for any): what per-address budgets and lockouts count and sessions record',
  },
  {
    name: 'REDIS_URL',
    default: 'none',
    meaning:
      '`redis://host:port`: rate-limit and sign-in lockout counters shared by every process (in memory otherwise)',
  },
  {
    name: 'CAIRN_PG_POOL_SIZE',
    default: '`10`',
    meaning: 'PostgreSQL: connections one process keeps at most',
  },
  {
    name: 'CAIRN_PG_CONNECT_TIMEOUT_MS',
    default: '`5000`',
    meaning:
      'PostgreSQL: how long a request waits for a connection (pool full, database away) before `503 unavailable`',
  },
  {
    name: 'CAIRN_PG_STATEMENT_TIMEOUT_MS',
    default: '`30000`',
    meaning:
      "PostgreSQL: the longest a request's statement may run (`0`: no limit); migrations and the CLI are not limited",
  },
  {
    name: 'CAIRN_PG_PREPARED_STATEMENTS',
    default: '`true`',
    meaning:
      'PostgreSQL: prepare hot statements once per connection; `false` behind a pooler in transaction mode that cannot keep them (PgBouncer before 1.21)',
  },
  {
    name: 'CAIRN_RENDER_BUDGET_MS',
    default: '`10000`',
    meaning:
      'the longest one description or post may take to convert (in a worker thread) before it is refused with `400`',
  },
  {
    name: 'CAIRN_METRICS_PORT',
    default: 'none',
    meaning:
      'Prometheus metrics at `GET /metrics` on a listener of its own ([`docs/operations.md`](docs/operations.md))',
  },
  {
    name: 'CAIRN_METRICS_TOKEN',
    default: 'none',
    meaning:
      'Prometheus metrics at `GET /metrics` on the main port, for this bearer token (at least 32 characters)',
  },
  {
    name: 'CAIRN_STREAM_MAX_PER_USER',
    default: '`10`',
    meaning: 'live streams (`GET /v1/events/stream`) one user may hold at once on one process (`429` beyond)',
  },
  {
    name: 'CAIRN_STREAM_HEARTBEAT_MS',
    default: '`20000`',
    meaning: 'how often a live stream sends a heartbeat comment',
  },
  {
    name: 'CAIRN_STREAM_BUFFER_BYTES',
    default: '`262144`',
    meaning: 'what a live stream may hold for a reader that does not take it before it is closed',
  },
];

/** README.md's table of settings. */
export function settingsTable(): string {
  const rows = SETTINGS.map((s) => `| \`${s.name}\` | ${s.default} | ${s.meaning} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Markdown to the plain words of a comment: links to their text, no backquotes. */
function plain(markdown: string): string {
  let out = '';
  let rest = markdown;
  for (let open = rest.indexOf('['); open >= 0; open = rest.indexOf('[')) {
    const close = rest.indexOf('](', open);
    const end = close < 0 ? -1 : rest.indexOf(')', close);
    if (end < 0) break;
    out += rest.slice(0, open) + rest.slice(open + 1, close);
    rest = rest.slice(end + 1);
  }
  return (out + rest).replaceAll('`', '');
}

/** A default that is a value to write (`8080`), rather than words (none, random, http://HOST:PORT). */
export function literalDefault(setting: Setting): string | undefined {
  return /^`[^`<>]+`$/.test(setting.default) && !/[A-Z]{4}/.test(setting.default)
    ? setting.default.slice(1, -1)
    : undefined;
}

/** .env.example: every setting, commented out at its default, with what it does. */
export function envExample(): string {
  const head = [
    "# Cairn's settings, each at its default (commented out). Cairn reads the environment only: set them",
    '# there, or keep them in a file of this form for systemd (EnvironmentFile=) or node --env-file.',
    '# Written from src/settings.ts by `npm run settings`; src/settings.test.ts keeps it in step.',
  ];
  const blocks = SETTINGS.map((s) => {
    const literal = literalDefault(s);
    const shown = literal === undefined ? `default: ${plain(s.default)}` : `default: ${literal}`;
    return `# ${plain(s.meaning)} (${shown})\n#${s.name}=${literal ?? ''}`;
  });
  return `${head.join('\n')}\n\n${blocks.join('\n\n')}\n`;
}
