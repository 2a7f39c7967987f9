// Deleting a task is soft (the API keeps it, with deletedAt): the page stays, says the task is
// deleted, and offers Undo (focused, so Enter takes it back), which restores it. A task found deleted
// later offers Restore, the same call.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Trash2, Undo2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { Task } from '../../api/index.ts';
import { deleteTask, restoreTask, taskQuery } from '../../api/tasks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

export function useDeleteTask(task: Task, taskKey: string) {
  const queryClient = useQueryClient();
  const { queryKey } = taskQuery(taskKey);
  const [justDeleted, setJustDeleted] = useState(false);
  const refreshLists = () => queryClient.invalidateQueries({ queryKey: ['tasks'] });
  const remove = useMutation({
    mutationFn: () => deleteTask(task),
    onSuccess: () => {
      queryClient.setQueryData(queryKey, { ...task, deletedAt: new Date().toISOString() });
      setJustDeleted(true);
      void refreshLists();
    },
  });
  const restore = useMutation({
    mutationFn: () => restoreTask(task),
    onSuccess: (restored) => {
      queryClient.setQueryData(queryKey, restored);
      setJustDeleted(false);
      void refreshLists();
    },
  });
  return { remove, restore, justDeleted };
}

type Deleting = ReturnType<typeof useDeleteTask>;

export function DeleteButton({ task, deleting }: { task: Task; deleting: Deleting }) {
  if (task.deletedAt !== null) return null;
  return (
    <button
      type="button"
      className="button"
      disabled={deleting.remove.isPending}
      onClick={() => deleting.remove.mutate()}
    >
      <Trash2 size={16} aria-hidden="true" /> Delete
    </button>
  );
}

/** The deleted task's notice with its way back, and the failures of deleting or restoring. */
export function DeletedNotice({ task, deleting }: { task: Task; deleting: Deleting }) {
  const undoRef = useRef<HTMLButtonElement>(null);
  const { justDeleted, remove, restore } = deleting;
  const shownDeleted = task.deletedAt !== null;
  // The cache's answer may render a moment after the state: focus once both are in.
  useEffect(() => {
    if (justDeleted && shownDeleted) undoRef.current?.focus();
  }, [justDeleted, shownDeleted]);
  const failure = remove.error ?? restore.error;
  return (
    <>
      {failure ? <ErrorNotice error={failure} /> : null}
      {task.deletedAt !== null ? (
        <div className="notice task-deleted" role="status">
          <Trash2 size={16} aria-hidden="true" />
          <p>{justDeleted ? 'Task deleted.' : 'This task is deleted.'}</p>
          <button
            ref={undoRef}
            type="button"
            className="button"
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
          >
            <Undo2 size={16} aria-hidden="true" /> {justDeleted ? 'Undo' : 'Restore'}
          </button>
        </div>
      ) : null}
    </>
  );
}
