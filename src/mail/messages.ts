// The mails' words: plain text, one link each, alone on its line so that any mail reader makes it
// clickable. Times are given in UTC, as everywhere in Cairn.
import type { Mail } from './mailer.ts';

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export function invitationMail(input: {
  to: string;
  workspace: string;
  invitedBy: string;
  role: string;
  url: string;
  expiresAt: string;
}): Mail {
  return {
    to: input.to,
    subject: `${input.invitedBy} invited you to ${input.workspace} on Cairn`,
    text: [
      `${input.invitedBy} invited you to join the workspace "${input.workspace}" on Cairn, as ${input.role}.`,
      '',
      'To accept, open this link and choose your name and password:',
      '',
      input.url,
      '',
      `The link works once, until ${when(input.expiresAt)}. If you did not expect this invitation, ignore this mail.`,
    ].join('\n'),
  };
}

export function passwordResetMail(input: {
  to: string;
  workspace: string;
  /** Who made the link: the person themselves (null), or an owner, by name. */
  madeBy: string | null;
  url: string;
  expiresAt: string;
}): Mail {
  const why = input.madeBy
    ? `${input.madeBy}, an owner of the workspace "${input.workspace}" on Cairn, made a link for you to set a new password.`
    : `Someone asked to set a new password for ${input.to} in the workspace "${input.workspace}" on Cairn.`;
  return {
    to: input.to,
    subject: `Set a new password for ${input.workspace} on Cairn`,
    text: [
      why,
      '',
      'To choose a new password, open this link:',
      '',
      input.url,
      '',
      `The link works once, until ${when(input.expiresAt)}. Setting a password signs you out everywhere.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
