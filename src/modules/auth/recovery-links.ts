// The one-time links of invitations and password links (docs/api.md "Invitations and password links"):
// a random token in a URL of the web app, stored only as its SHA-256 (sessions.ts hashSecret), like
// API tokens and session cookies. The token is 256 random bits, so it cannot be guessed, and a plain
// hash keeps its lookup one indexed equality.
import { randomBytes } from 'node:crypto';
import { AppError } from '../../http/errors.ts';

/** The web app's pages a link opens: `<CAIRN_PUBLIC_URL>/invite/<token>`, `…/reset-password/<token>`. */
export type LinkPage = 'invite' | 'reset-password';

export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function linkUrl(publicUrl: string, page: LinkPage, token: string): string {
  return `${publicUrl}/${page}/${token}`;
}

/** 400 invalid_token: the link cannot be used, and why, in words the person can act on. */
export function invalidToken(detail: string): AppError {
  return new AppError('invalid_token', detail, [{ path: '/body/token', message: 'is not a usable link' }]);
}
