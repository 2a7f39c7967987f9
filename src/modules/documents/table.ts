// The documents' table, declared by their module and added to the database's type (db/types.ts) by
// declaration merging: a resource's rows are its own, and adding one edits no shared type.
import type { Generated } from 'kysely';
import type { Timestamp, Visibility } from '../../db/types.ts';

export interface DocumentsTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  public_id: string;
  name: string;
  slug: string;
  visibility: Visibility;
  group_id: string;
  description_html: string;
  description_markdown: string;
  created_by_id: string;
  last_edited_by_id: string | null;
  last_edited_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  deleted_by_id: string | null;
}

declare module '../../db/types.ts' {
  interface DB {
    documents: DocumentsTable;
  }
}
