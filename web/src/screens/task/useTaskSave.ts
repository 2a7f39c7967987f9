// Saving a task's fields: each save sends only what changed, with `If-Match` naming the version the
// person saw. A field shows its new value at once (an overlay on the task until the answer comes) and
// goes back when the save fails; a 412 (someone changed the task since) reads the newer version and
// keeps the person's change beside it, to save again over it or to drop.
//
// Saves go one at a time, in order, and the person's own saves never conflict with each other: a save
// made from a version that an earlier save of theirs replaced names the version that save made.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Task } from '../../api/index.ts';
import { isConflict, readTask, saveTask, type TaskChanges, taskQuery } from '../../api/tasks.ts';

export interface Conflict {
  /** What the person tried to save. */
  changes: TaskChanges;
  /** The task as it is now, which someone else changed. */
  latest: Task;
}

export type SaveResult = 'saved' | 'conflict' | 'failed';
export type Save = (base: Task, changes: TaskChanges) => Promise<SaveResult>;

interface SaveInput {
  base: Task;
  changes: TaskChanges;
}

/** The fields shown before the answer (a description shows once saved: the API renders it). */
type Shown = Omit<TaskChanges, 'description'>;

export function useTaskSave(taskKey: string) {
  const queryClient = useQueryClient();
  const { queryKey } = taskQuery(taskKey);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [pending, setPending] = useState<Shown>({});
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  // updatedAt → the updatedAt that the person's own save made of that version.
  const replaced = useRef(new Map<string, string>());

  /** The version to name: the base, moved past the person's own saves since. */
  const forward = (base: Task): Task => {
    let at = base.updatedAt;
    for (let next = replaced.current.get(at); next; next = replaced.current.get(at)) at = next;
    return at === base.updatedAt ? base : { ...base, updatedAt: at };
  };

  const mutation = useMutation({
    mutationFn: ({ base, changes }: SaveInput) => saveTask(base, changes),
    onError: async (error, { base, changes }) => {
      if (!isConflict(error)) return;
      try {
        const latest = await readTask(base.id);
        queryClient.setQueryData(queryKey, latest);
        setConflict({ changes, latest });
      } catch {
        // The newer version could not be read: the 412's own detail is shown, and a reload reads it.
      }
    },
    onSuccess: (task, { base }) => {
      replaced.current.set(base.updatedAt, task.updatedAt);
      queryClient.setQueryData(queryKey, task);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['tasks'] }),
  });
  const { mutateAsync } = mutation;

  /**
   * Saves. A conflict is then shown with the person's change (an editor may close: nothing typed is
   * lost); a failure shows the API's detail (an editor stays open with what was typed).
   */
  const save: Save = (base, changes) => {
    const { description: _description, ...shown } = changes;
    setPending((was) => ({ ...was, ...shown }));
    setConflict(null);
    const run = async (): Promise<SaveResult> => {
      try {
        await mutateAsync({ base: forward(base), changes });
        return 'saved';
      } catch (error) {
        return isConflict(error) ? 'conflict' : 'failed';
      } finally {
        // A later change of the same field keeps showing until its own answer.
        setPending((was) => {
          const next: Record<string, unknown> = { ...was };
          for (const [key, value] of Object.entries(shown)) if (next[key] === value) delete next[key];
          return next as Shown;
        });
      }
    };
    const result = queue.current.then(run);
    queue.current = result;
    return result;
  };

  return {
    save,
    /** The task with the changes on their way shown. */
    shown: (task: Task): Task => ({ ...task, ...pending }),
    saving: mutation.isPending,
    /** A failure other than a conflict, to show with the API's detail. */
    error: mutation.isError && !(conflict && isConflict(mutation.error)) ? mutation.error : null,
    conflict,
    /** Saves the person's change over the newer version. */
    keepMine: () => {
      if (conflict) void save(conflict.latest, conflict.changes);
    },
    /** Drops the person's change: the newer version stays. */
    useTheirs: () => {
      setConflict(null);
      mutation.reset();
    },
  };
}
