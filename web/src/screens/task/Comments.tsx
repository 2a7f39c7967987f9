// The task's comments: a thread per top-level comment, replies indented one level, reactions as small
// toggle chips, and Resolve on a thread. Posting keeps what was typed when it fails.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { CircleCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { Task } from '../../api/index.ts';
import {
  commentsQuery,
  type Post,
  postComment,
  repliesQuery,
  setReaction,
  setResolved,
} from '../../api/tasks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { Markdown } from './Markdown.tsx';

const appRoute = getRouteApi('/app');

/** The reactions offered on every comment, by the name the API keeps. */
const REACTIONS: { name: string; emoji: string; words: string }[] = [
  { name: 'thumbsup', emoji: '👍', words: 'Thumbs up' },
  { name: 'tada', emoji: '🎉', words: 'Hooray' },
  { name: 'heart', emoji: '❤️', words: 'Heart' },
  { name: 'eyes', emoji: '👀', words: 'Looking' },
];

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function Comments({ task }: { task: Task }) {
  const comments = useQuery(commentsQuery(task.id));
  const headingId = useId();
  return (
    <section className="task-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Comments</h2>
      {comments.isPending ? <SkeletonRows count={2} label="Loading comments" /> : null}
      {comments.isError ? <ErrorNotice error={comments.error} /> : null}
      {comments.data?.length === 0 ? <p className="muted">No comments yet.</p> : null}
      {comments.data?.length ? (
        <ol className="comments">
          {comments.data.map((post) => (
            <Thread key={post.id} post={post} task={task} />
          ))}
        </ol>
      ) : null}
      {task.deletedAt === null ? <CommentForm task={task} label="Add a comment" button="Comment" /> : null}
    </section>
  );
}

function Thread({ post, task }: { post: Post; task: Task }) {
  const replies = useQuery(repliesQuery(post.id));
  const [replying, setReplying] = useState(false);
  const queryClient = useQueryClient();
  const resolve = useMutation({
    mutationFn: (resolved: boolean) => setResolved(post.id, resolved),
    onSettled: () => queryClient.invalidateQueries({ queryKey: commentsQuery(task.id).queryKey }),
  });
  const author = post.owner?.name ?? 'Someone';
  return (
    <li className={post.isResolved ? 'thread thread-resolved' : 'thread'}>
      <Comment post={post} taskId={task.id}>
        {post.isResolved ? (
          <span className="resolved-badge">
            <CircleCheck size={14} aria-hidden="true" /> Resolved
          </span>
        ) : null}
        <button type="button" className="button button-quiet" onClick={() => setReplying(!replying)}>
          Reply
        </button>
        <button
          type="button"
          className="button button-quiet"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate(!post.isResolved)}
        >
          {post.isResolved ? 'Reopen' : 'Resolve'}
        </button>
      </Comment>
      {resolve.isError ? <ErrorNotice error={resolve.error} /> : null}
      {replies.data?.length ? (
        <ol className="replies" aria-label={`Replies to ${author}`}>
          {replies.data.map((reply) => (
            <li key={reply.id}>
              <Comment post={reply} taskId={task.id} />
            </li>
          ))}
        </ol>
      ) : null}
      {replies.isError ? <ErrorNotice error={replies.error} /> : null}
      {replying ? (
        <CommentForm
          task={task}
          parent={post}
          label={`Reply to ${author}`}
          button="Post reply"
          onDone={() => setReplying(false)}
        />
      ) : null}
    </li>
  );
}

interface CommentProps {
  post: Post;
  taskId: string;
  children?: React.ReactNode;
}

function Comment({ post, taskId, children }: CommentProps) {
  const author = post.owner?.name ?? 'Someone';
  return (
    <article className="comment" aria-label={`${author}, ${WHEN.format(new Date(post.createdAt))}`}>
      <header className="comment-head">
        <strong>{author}</strong>
        <time className="muted small" dateTime={post.createdAt}>
          {WHEN.format(new Date(post.createdAt))}
        </time>
      </header>
      <Markdown text={post.content} className="rich-text" />
      <div className="comment-actions">
        <Reactions post={post} taskId={taskId} />
        {children}
      </div>
    </article>
  );
}

function Reactions({ post, taskId }: { post: Post; taskId: string }) {
  const { me } = appRoute.useRouteContext();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: ({ name, on }: { name: string; on: boolean }) => setReaction(post.id, name, on),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: commentsQuery(taskId).queryKey }),
        post.parentId
          ? queryClient.invalidateQueries({ queryKey: repliesQuery(post.parentId).queryKey })
          : undefined,
      ]),
  });
  const reactions = post.reactions ?? [];
  // The offered ones, then any other a person made through the API.
  const others = [...new Set(reactions.map((r) => r.reaction))].filter(
    (name) => !REACTIONS.some((r) => r.name === name),
  );
  const shown = [...REACTIONS, ...others.map((name) => ({ name, emoji: name, words: name }))];
  return (
    <span className="reactions">
      {shown.map(({ name, emoji, words }) => {
        const count = reactions.filter((r) => r.reaction === name).length;
        const mine = reactions.some((r) => r.reaction === name && r.userId === me.id);
        return (
          <button
            key={name}
            type="button"
            className="reaction"
            aria-pressed={mine}
            aria-label={`${words}: ${count}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate({ name, on: !mine })}
          >
            <span aria-hidden="true">{emoji}</span>
            {count > 0 ? <span aria-hidden="true">{count}</span> : null}
          </button>
        );
      })}
      {toggle.isError ? <ErrorNotice error={toggle.error} /> : null}
    </span>
  );
}

interface FormProps {
  task: Task;
  parent?: Post;
  label: string;
  button: string;
  onDone?: () => void;
}

function CommentForm({ task, parent, label, button, onDone }: FormProps) {
  const [text, setText] = useState('');
  const id = useId();
  const queryClient = useQueryClient();
  const post = useMutation({
    mutationFn: (content: string) =>
      postComment({ taskId: task.id, content, ...(parent ? { parentId: parent.id } : {}) }),
    onSuccess: async () => {
      setText('');
      onDone?.();
      await queryClient.invalidateQueries({
        queryKey: parent ? repliesQuery(parent.id).queryKey : commentsQuery(task.id).queryKey,
      });
    },
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (text.trim()) post.mutate(text);
  }
  return (
    <form className="comment-form" onSubmit={onSubmit}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={text}
        rows={parent ? 2 : 3}
        // biome-ignore lint/a11y/noAutofocus: a reply form opens because the person asked to reply.
        autoFocus={parent !== undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) onSubmit(event);
        }}
      />
      {post.isError ? <ErrorNotice error={post.error} /> : null}
      <div className="editor-actions">
        <button type="submit" className="button button-primary" disabled={post.isPending || !text.trim()}>
          {button}
        </button>
        {onDone ? (
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
