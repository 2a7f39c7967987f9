// Invitations and password links (docs/api.md "Invitations and password links"):
// - One open invitation per email and workspace: inviting an email that already has one replaces it
//   (the older is revoked in the same transaction, under a lock per email), and this index makes sure
//   no two links of one email are ever live. "Open" is neither accepted nor revoked; an expired one
//   holds its place until a new invitation replaces it.
// - People by email across workspaces: a self-service password reset names no workspace
//   (`unique (workspace_id, email)` serves lookups within one). `if not exists`: sign-in reads users
//   by email the same way and may have made it under this name.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await sql`create unique index invitations_open_by_email on invitations (workspace_id, email)
    where accepted_at is null and revoked_at is null`.execute(db);
  await sql`create index if not exists users_by_email on users (email)`.execute(db);
}
