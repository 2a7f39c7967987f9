// Generated from Cairn's /openapi.json: `npm run generate -w client`. Do not edit.
// client/test/generated.test.ts fails when this file differs from what the current server generates.
import type { Call } from './calls.ts';
import type { operations, paths } from './openapi.ts';

/** Every operation of the server, by its operationId: its method and its path. */
export const OPERATIONS = {
  getHealth: ['get', '/healthz'],
  getReadiness: ['get', '/readyz'],
  upsertTask: ['post', '/v1/tasks'],
  batchUpsertTasks: ['post', '/v1/tasks/batch'],
  searchTasks: ['get', '/v1/tasks/search'],
  getTask: ['get', '/v1/tasks/{id}'],
  deleteTask: ['delete', '/v1/tasks/{id}'],
  restoreTask: ['post', '/v1/tasks/{id}/restore'],
  upsertProject: ['post', '/v1/projects'],
  getProject: ['get', '/v1/projects/{id}'],
  archiveProject: ['post', '/v1/projects/{id}/archive'],
  unarchiveProject: ['post', '/v1/projects/{id}/unarchive'],
  postProjectStatusUpdate: ['post', '/v1/projects/{id}/status-update'],
  listProjects: ['get', '/v1/projects/list'],
  searchProjects: ['get', '/v1/projects/search'],
  upsertDocument: ['post', '/v1/documents'],
  searchDocuments: ['get', '/v1/documents/search'],
  getDocument: ['get', '/v1/documents/{id}'],
  deleteDocument: ['delete', '/v1/documents/{id}'],
  restoreDocument: ['post', '/v1/documents/{id}/restore'],
  createPost: ['post', '/v1/posts'],
  listPosts: ['get', '/v1/posts/list'],
  getPost: ['get', '/v1/posts/{id}'],
  listPostReplies: ['get', '/v1/posts/{id}/replies'],
  resolvePost: ['post', '/v1/posts/{id}/resolve'],
  unresolvePost: ['post', '/v1/posts/{id}/unresolve'],
  addPostReaction: ['post', '/v1/posts/{id}/reactions'],
  removePostReaction: ['delete', '/v1/posts/{id}/reactions/{reaction}'],
  upsertTeam: ['post', '/v1/teams'],
  getTeam: ['get', '/v1/teams/{id}'],
  archiveTeam: ['post', '/v1/teams/{id}/archive'],
  unarchiveTeam: ['post', '/v1/teams/{id}/unarchive'],
  upsertArea: ['post', '/v1/areas'],
  getArea: ['get', '/v1/areas/{id}'],
  archiveArea: ['post', '/v1/areas/{id}/archive'],
  unarchiveArea: ['post', '/v1/areas/{id}/unarchive'],
  searchTeams: ['get', '/v1/teams/search'],
  upsertTaskTemplate: ['post', '/v1/task-templates'],
  listTaskTemplates: ['get', '/v1/task-templates'],
  getTaskTemplate: ['get', '/v1/task-templates/{id}'],
  deleteTaskTemplate: ['delete', '/v1/task-templates/{id}'],
  createTaskFromTemplate: ['post', '/v1/task-templates/{id}/create-task'],
  upsertProjectTemplate: ['post', '/v1/project-templates'],
  listProjectTemplates: ['get', '/v1/project-templates'],
  getProjectTemplate: ['get', '/v1/project-templates/{id}'],
  deleteProjectTemplate: ['delete', '/v1/project-templates/{id}'],
  createProjectFromTemplate: ['post', '/v1/project-templates/{id}/create-project'],
  getMe: ['get', '/v1/me'],
  upsertUser: ['post', '/v1/users'],
  listUsers: ['get', '/v1/users'],
  getUser: ['get', '/v1/users/{id}'],
  listApiTokens: ['get', '/v1/api-tokens'],
  createApiToken: ['post', '/v1/api-tokens'],
  deleteApiToken: ['delete', '/v1/api-tokens/{id}'],
  signIn: ['post', '/v1/auth/sign-in'],
  signOut: ['post', '/v1/auth/sign-out'],
  listSessions: ['get', '/v1/auth/sessions'],
  deleteSession: ['delete', '/v1/auth/sessions/{id}'],
  changePassword: ['post', '/v1/auth/password'],
  listCollections: ['get', '/v1/collections'],
  upsertCollection: ['post', '/v1/collections'],
  listProjectStatuses: ['get', '/v1/project-statuses'],
  upsertProjectStatus: ['post', '/v1/project-statuses'],
  listEvents: ['get', '/v1/events'],
  streamEvents: ['get', '/v1/events/stream'],
  listWebhookEvents: ['get', '/v1/webhooks/events'],
  subscribeWebhook: ['post', '/v1/webhooks/subscribe'],
  listWebhookSubscriptions: ['get', '/v1/webhooks/subscribe'],
  rollWebhookSecret: ['post', '/v1/webhooks/subscribe/{id}/roll-secret'],
  getWebhookSubscription: ['get', '/v1/webhooks/subscribe/{id}'],
  unsubscribeWebhook: ['delete', '/v1/webhooks/subscribe/{id}'],
  listWebhookDeliveries: ['get', '/v1/webhooks/subscribe/{id}/deliveries'],
  retryWebhookDelivery: ['post', '/v1/webhooks/subscribe/{id}/deliveries/{deliveryId}/retry'],
  createInvitation: ['post', '/v1/invitations'],
  listInvitations: ['get', '/v1/invitations'],
  revokeInvitation: ['delete', '/v1/invitations/{id}'],
  acceptInvitation: ['post', '/v1/auth/accept-invitation'],
  requestPasswordReset: ['post', '/v1/auth/password-reset'],
  resetPassword: ['post', '/v1/auth/reset-password'],
  createPasswordLink: ['post', '/v1/users/{id}/password-reset'],
} as const satisfies Record<keyof operations, readonly ['get' | 'post' | 'delete', keyof paths]>;

/** A method per operation, named by its operationId: `cairn.upsertTask({ body })`. */
export interface OperationMethods {
  /** The process is up (`GET /healthz`). */
  getHealth: Call<'getHealth'>;
  /** The database answers (`GET /readyz`). */
  getReadiness: Call<'getReadiness'>;
  /** Create a task, or update one when id is given (`POST /v1/tasks`). */
  upsertTask: Call<'upsertTask'>;
  /** Create or update up to 100 tasks; each entry succeeds or fails on its own (`POST /v1/tasks/batch`). */
  batchUpsertTasks: Call<'batchUpsertTasks'>;
  /** Search tasks by name, description, project, team and assignee name (`GET /v1/tasks/search`). */
  searchTasks: Call<'searchTasks'>;
  /** A task by UUID or publicId (a deleted one too, with deletedAt) (`GET /v1/tasks/{id}`). */
  getTask: Call<'getTask'>;
  /** Soft-delete a task (deleting it again changes nothing) (`DELETE /v1/tasks/{id}`). */
  deleteTask: Call<'deleteTask'>;
  /** Restore a soft-deleted task (`POST /v1/tasks/{id}/restore`). */
  restoreTask: Call<'restoreTask'>;
  /** Create a project, or update one when id is given (`POST /v1/projects`). */
  upsertProject: Call<'upsertProject'>;
  /** A project by UUID or publicId (`GET /v1/projects/{id}`). */
  getProject: Call<'getProject'>;
  /** Archive a project (`POST /v1/projects/{id}/archive`). */
  archiveProject: Call<'archiveProject'>;
  /** Unarchive a project (`POST /v1/projects/{id}/unarchive`). */
  unarchiveProject: Call<'unarchiveProject'>;
  /** Set the project status and post a status update (`POST /v1/projects/{id}/status-update`). */
  postProjectStatusUpdate: Call<'postProjectStatusUpdate'>;
  /** Projects, newest first (`GET /v1/projects/list`). */
  listProjects: Call<'listProjects'>;
  /** Search projects by name, description, owner name and team name (`GET /v1/projects/search`). */
  searchProjects: Call<'searchProjects'>;
  /** Create a document, or update one when id is given (`POST /v1/documents`). */
  upsertDocument: Call<'upsertDocument'>;
  /** Search documents by name, description and team name (`GET /v1/documents/search`). */
  searchDocuments: Call<'searchDocuments'>;
  /** A document by UUID or publicId (a deleted one too, with deletedAt) (`GET /v1/documents/{id}`). */
  getDocument: Call<'getDocument'>;
  /** Soft-delete a document (deleting it again changes nothing) (`DELETE /v1/documents/{id}`). */
  deleteDocument: Call<'deleteDocument'>;
  /** Restore a soft-deleted document (`POST /v1/documents/{id}/restore`). */
  restoreDocument: Call<'restoreDocument'>;
  /** Post on a task, project or document (a reply with parentId) (`POST /v1/posts`). */
  createPost: Call<'createPost'>;
  /** An entity's top-level posts, oldest first (replies are under each post) (`GET /v1/posts/list`). */
  listPosts: Call<'listPosts'>;
  /** A post by UUID or publicId (`GET /v1/posts/{id}`). */
  getPost: Call<'getPost'>;
  /** Replies to a post, oldest first (`GET /v1/posts/{id}/replies`). */
  listPostReplies: Call<'listPostReplies'>;
  /** Mark a thread resolved (`POST /v1/posts/{id}/resolve`). */
  resolvePost: Call<'resolvePost'>;
  /** Mark a thread unresolved (`POST /v1/posts/{id}/unresolve`). */
  unresolvePost: Call<'unresolvePost'>;
  /** React to a post (once per user and reaction: a repeat is 200 and changes nothing) (`POST /v1/posts/{id}/reactions`). */
  addPostReaction: Call<'addPostReaction'>;
  /** Remove the caller's reaction (204 also when there was none) (`DELETE /v1/posts/{id}/reactions/{reaction}`). */
  removePostReaction: Call<'removePostReaction'>;
  /** Create a team, or update one when id is given (`POST /v1/teams`). */
  upsertTeam: Call<'upsertTeam'>;
  /** A team by UUID or publicId (`GET /v1/teams/{id}`). */
  getTeam: Call<'getTeam'>;
  /** Archive a team (`POST /v1/teams/{id}/archive`). */
  archiveTeam: Call<'archiveTeam'>;
  /** Unarchive a team (`POST /v1/teams/{id}/unarchive`). */
  unarchiveTeam: Call<'unarchiveTeam'>;
  /** Create a area, or update one when id is given (`POST /v1/areas`). */
  upsertArea: Call<'upsertArea'>;
  /** A area by UUID or publicId (`GET /v1/areas/{id}`). */
  getArea: Call<'getArea'>;
  /** Archive a area (`POST /v1/areas/{id}/archive`). */
  archiveArea: Call<'archiveArea'>;
  /** Unarchive a area (`POST /v1/areas/{id}/unarchive`). */
  unarchiveArea: Call<'unarchiveArea'>;
  /** Search teams by name (`GET /v1/teams/search`). */
  searchTeams: Call<'searchTeams'>;
  /** Create a task template, or update one when id is given (`POST /v1/task-templates`). */
  upsertTaskTemplate: Call<'upsertTaskTemplate'>;
  /** The task templates the caller sees, oldest first (`GET /v1/task-templates`). */
  listTaskTemplates: Call<'listTaskTemplates'>;
  /** A task template by UUID or publicId (a deleted one too, with deletedAt) (`GET /v1/task-templates/{id}`). */
  getTaskTemplate: Call<'getTaskTemplate'>;
  /** Soft-delete a task template (deleting it again changes nothing) (`DELETE /v1/task-templates/{id}`). */
  deleteTaskTemplate: Call<'deleteTaskTemplate'>;
  /** Make a task (and one per child template) in the template's area (`POST /v1/task-templates/{id}/create-task`). */
  createTaskFromTemplate: Call<'createTaskFromTemplate'>;
  /** Create a project template, or update one when id is given (`POST /v1/project-templates`). */
  upsertProjectTemplate: Call<'upsertProjectTemplate'>;
  /** The project templates the caller sees, oldest first (`GET /v1/project-templates`). */
  listProjectTemplates: Call<'listProjectTemplates'>;
  /** A project template by UUID or publicId (a deleted one too, with deletedAt) (`GET /v1/project-templates/{id}`). */
  getProjectTemplate: Call<'getProjectTemplate'>;
  /** Soft-delete a project template (deleting it again changes nothing) (`DELETE /v1/project-templates/{id}`). */
  deleteProjectTemplate: Call<'deleteProjectTemplate'>;
  /** Make a project in the template's area, with a task per task template scoped to it (`POST /v1/project-templates/{id}/create-project`). */
  createProjectFromTemplate: Call<'createProjectFromTemplate'>;
  /** The caller and its workspace (`GET /v1/me`). */
  getMe: Call<'getMe'>;
  /** Add a user to the workspace (owners and admins), or update one when id is given (`POST /v1/users`). */
  upsertUser: Call<'upsertUser'>;
  /** The workspace directory, oldest first (`GET /v1/users`). */
  listUsers: Call<'listUsers'>;
  /** A person of the caller's directory, by id (guests: themselves and their groups' people) (`GET /v1/users/{id}`). */
  getUser: Call<'getUser'>;
  /** The caller's own tokens (not revoked), oldest first; never the secret (`GET /v1/api-tokens`). */
  listApiTokens: Call<'listApiTokens'>;
  /** Create an API token (returned once) (`POST /v1/api-tokens`). */
  createApiToken: Call<'createApiToken'>;
  /** Revoke an API token (`DELETE /v1/api-tokens/{id}`). */
  deleteApiToken: Call<'deleteApiToken'>;
  /** Sign in with an email and a password: starts a session (the cairn_session cookie) (`POST /v1/auth/sign-in`). */
  signIn: Call<'signIn'>;
  /** End this browser's session (if it has one) and clear its cookie (`POST /v1/auth/sign-out`). */
  signOut: Call<'signOut'>;
  /** The caller's live sessions, newest first (`GET /v1/auth/sessions`). */
  listSessions: Call<'listSessions'>;
  /** End one of the caller's sessions (this one too: its cookie is cleared) (`DELETE /v1/auth/sessions/{id}`). */
  deleteSession: Call<'deleteSession'>;
  /** Change the caller's password; every other session of the caller ends (`POST /v1/auth/password`). */
  changePassword: Call<'changePassword'>;
  /** The workspace's collections, oldest first (`GET /v1/collections`). */
  listCollections: Call<'listCollections'>;
  /** Create a collection, or rename one when id is given (`POST /v1/collections`). */
  upsertCollection: Call<'upsertCollection'>;
  /** The workspace's project statuses, in order (`GET /v1/project-statuses`). */
  listProjectStatuses: Call<'listProjectStatuses'>;
  /** Create a project status, or update one when id is given (owners and admins) (`POST /v1/project-statuses`). */
  upsertProjectStatus: Call<'upsertProjectStatus'>;
  /** Changes, oldest first, as webhook deliveries carry them (kept for the retention period) (`GET /v1/events`). */
  listEvents: Call<'listEvents'>;
  /** Changes as they happen, as Server-Sent Events (resumable with Last-Event-ID) (`GET /v1/events/stream`). */
  streamEvents: Call<'streamEvents'>;
  /** The event names a subscription can name (`GET /v1/webhooks/events`). */
  listWebhookEvents: Call<'listWebhookEvents'>;
  /** Subscribe a URL to an event or a pattern of events, or change a subscription when id is given (`POST /v1/webhooks/subscribe`). */
  subscribeWebhook: Call<'subscribeWebhook'>;
  /** The caller's subscriptions (without secrets), oldest first, with their state (`GET /v1/webhooks/subscribe`). */
  listWebhookSubscriptions: Call<'listWebhookSubscriptions'>;
  /** Replace a subscription's secret; the old one still signs deliveries for 24 hours (`POST /v1/webhooks/subscribe/{id}/roll-secret`). */
  rollWebhookSecret: Call<'rollWebhookSecret'>;
  /** A subscription (without its secret), with its state (`GET /v1/webhooks/subscribe/{id}`). */
  getWebhookSubscription: Call<'getWebhookSubscription'>;
  /** Remove a subscription (`DELETE /v1/webhooks/subscribe/{id}`). */
  unsubscribeWebhook: Call<'unsubscribeWebhook'>;
  /** A subscription's delivery attempts, newest first (`GET /v1/webhooks/subscribe/{id}/deliveries`). */
  listWebhookDeliveries: Call<'listWebhookDeliveries'>;
  /** Send an attempt's event again (queued; the delivery log shows the outcome) (`POST /v1/webhooks/subscribe/{id}/deliveries/{deliveryId}/retry`). */
  retryWebhookDelivery: Call<'retryWebhookDelivery'>;
  /** Invite someone by email with a role (owners); the answer holds the one-time link, mailed too when SMTP is set (`POST /v1/invitations`). */
  createInvitation: Call<'createInvitation'>;
  /** The workspace's invitations, newest first (owners); never their links (`GET /v1/invitations`). */
  listInvitations: Call<'listInvitations'>;
  /** Revoke an invitation (owners): its link stops working (`DELETE /v1/invitations/{id}`). */
  revokeInvitation: Call<'revokeInvitation'>;
  /** Accept an invitation: become a user of its workspace with its role, and be signed in (`POST /v1/auth/accept-invitation`). */
  acceptInvitation: Call<'acceptInvitation'>;
  /** Ask for a password link by email: 202 whether or not the email belongs to anyone; mailed when SMTP is set (`POST /v1/auth/password-reset`). */
  requestPasswordReset: Call<'requestPasswordReset'>;
  /** Set a password through a one-time link; signs the person out everywhere (`POST /v1/auth/reset-password`). */
  resetPassword: Call<'resetPassword'>;
  /** Make a one-time password link for a person (owners); mailed to them too when SMTP is set (`POST /v1/users/{id}/password-reset`). */
  createPasswordLink: Call<'createPasswordLink'>;
}
