// Documents: a team's list and its search (words of the name or the text, prefix matching as the API
// does), deleted ones too when asked; one document with its Markdown and its ETag; saving with
// If-Match (a 412 means someone saved meanwhile), creating, deleting and restoring.
import { CairnError, type FieldError, type Schema } from '@cairn/client';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { cairn, PAGE_SIZE } from './client.ts';

export type Document = Schema<'Document'>;

/** A document as read for its page: the answer and the version to send back as If-Match. */
export interface DocumentVersion {
  document: Document;
  etag: string | undefined;
}

export interface TeamDocumentFilters {
  text?: string | undefined;
  deleted?: boolean | undefined;
}

/** A team's documents, most recently updated first (with words: the best matches first), 100 a page. */
export function teamDocumentsQuery(teamId: string, filters: TeamDocumentFilters) {
  return infiniteQueryOptions({
    queryKey: ['documents', 'team', teamId, filters],
    queryFn: ({ pageParam, signal }) =>
      cairn.searchDocuments({
        params: {
          query: {
            teamId,
            // The name or the text: a document is found by any word it has.
            ...(filters.text ? { name: filters.text, description: filters.text, matchMode: 'any' } : {}),
            includeDeleted: filters.deleted ? 'true' : undefined,
            expand: ['none'],
            limit: PAGE_SIZE,
            cursor: pageParam || undefined,
          },
        },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
}

async function readDocument(key: string, signal?: AbortSignal): Promise<DocumentVersion> {
  const answer = await cairn.getWithETag('getDocument', {
    params: { path: { id: key }, query: { includeMarkdown: 'true' } },
    signal,
  });
  return { document: answer.data, etag: answer.etag };
}

/** One document by publicId or id, with its Markdown and ETag. */
export function documentQuery(key: string) {
  return queryOptions({
    queryKey: ['document', key],
    queryFn: ({ signal }) => readDocument(key, signal),
  });
}

/** The document as it is now (after a 412: the version someone else saved). */
export function readLatestDocument(key: string): Promise<DocumentVersion> {
  return readDocument(key);
}

export interface DocumentChange {
  id: string;
  name: string;
  markdown: string;
  /** The version the change was made from: the save is refused (412) if the document moved on. */
  etag: string | undefined;
}

/** Saves a document's name and text; answers the saved document and its new ETag. */
export async function saveDocument(change: DocumentChange): Promise<DocumentVersion> {
  const { data, response, error } = await cairn.raw.POST('/v1/documents', {
    params: {
      query: { includeMarkdown: 'true' },
      header: change.etag ? { 'If-Match': change.etag } : {},
    },
    body: { id: change.id, name: change.name, description: { markdown: change.markdown } },
  });
  if (!data) throw asError(response, error);
  return { document: data, etag: response.headers.get('etag') ?? undefined };
}

/** A failed raw call as the CairnError every other call throws (the same problem+json reading). */
function asError(response: Response, body: unknown): CairnError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: string;
    title?: string;
    detail?: string;
    errors?: FieldError[];
    requestId?: string;
  };
  return new CairnError({
    status: response.status,
    code: problem.code ?? 'unexpected_response',
    title: problem.title ?? response.statusText,
    detail: problem.detail ?? `HTTP ${response.status}`,
    errors: Array.isArray(problem.errors) ? problem.errors : [],
    requestId: problem.requestId ?? response.headers.get('x-request-id') ?? undefined,
  });
}

export function createDocument(input: { teamId: string; name: string }) {
  return cairn.upsertDocument({ body: { teamId: input.teamId, name: input.name } });
}

export function deleteDocument(id: string) {
  return cairn.deleteDocument({ params: { path: { id } } });
}

export function restoreDocument(id: string) {
  return cairn.restoreDocument({ params: { path: { id } } });
}
