// Sign-in finds a person by email before it knows their workspace (auth/service.ts): emails are
// unique per workspace only, so without this index that lookup would read every user. Like the
// token-hash and session-hash lookups, it is one of the few that cannot lead with workspace_id.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('create index users_by_email on users (email)').execute(db);
}
