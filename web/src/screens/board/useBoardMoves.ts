// A card's move to another status, saved at once: the card shows in its new column while the save is on
// its way (an overlay on the cached set, set in onMutate) and goes back if it fails (the overlay
// removed). Each save names the version the person saw (`If-Match`); a 412 reads the newer version,
// puts it on the board, and keeps the move to try again.
//
// Moves are never lost: they share one mutation scope, so they are saved one at a time in the order
// made, and a move made while another is on its way waits for it. The person's own moves of one card
// never conflict with each other: a move from a version that an earlier move replaced names the version
// that move made.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { isMoveConflict, moveTask, readBoardTask, type TaskSet } from '../../api/board.ts';
import type { Task } from '../../api/index.ts';

export interface Move {
  /** The task as the person saw it (the server's version, without moves on their way). */
  task: Task;
  statusId: string;
  /** Which move of the card this is: only the latest one's overlay shows. */
  seq: number;
}

export interface Pending {
  statusId: string;
  seq: number;
  /** When the move was made: the card goes to the top of a column ordered by last change. */
  at: string;
}

export interface MoveConflict {
  /** The task as it is now. */
  latest: Task;
  /** The status the person moved it to. */
  statusId: string;
}

export function useBoardMoves(teamId: string) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ReadonlyMap<string, Pending>>(new Map());
  const [conflict, setConflict] = useState<MoveConflict | null>(null);
  const [failure, setFailure] = useState<{ error: unknown; task: Task } | null>(null);
  const counter = useRef(0);
  // updatedAt → the updatedAt that the person's own move made of that version.
  const replaced = useRef(new Map<string, string>());

  const forward = (task: Task): Task => {
    let at = task.updatedAt;
    for (let next = replaced.current.get(at); next; next = replaced.current.get(at)) at = next;
    return at === task.updatedAt ? task : { ...task, updatedAt: at };
  };

  /** Puts the task, as the server answered, in every cached set of the team. */
  const store = useCallback(
    (task: Task) =>
      queryClient.setQueriesData<TaskSet>({ queryKey: ['board', teamId] }, (set) =>
        set ? { ...set, tasks: set.tasks.map((t) => (t.id === task.id ? task : t)) } : set,
      ),
    [queryClient, teamId],
  );

  const mutation = useMutation({
    scope: { id: `board-moves:${teamId}` },
    mutationFn: ({ task, statusId }: Move) => moveTask(forward(task), statusId),
    onMutate: ({ task, statusId, seq }) => {
      setPending((was) => new Map(was).set(task.id, { statusId, seq, at: new Date().toISOString() }));
      setConflict((was) => (was?.latest.id === task.id ? null : was));
      setFailure(null);
    },
    onSuccess: (saved, { task }) => {
      replaced.current.set(forward(task).updatedAt, saved.updatedAt);
      store(saved);
    },
    onError: async (error, { task, statusId }) => {
      if (!isMoveConflict(error)) {
        setFailure({ error, task });
        return;
      }
      try {
        const latest = await readBoardTask(task.id);
        store(latest);
        setConflict({ latest, statusId });
      } catch (readError) {
        setFailure({ error: readError, task });
      }
    },
    onSettled: (_saved, _error, { task, seq }) => {
      // Rolled back on failure, replaced by the answer on success; a later move of the card stays.
      setPending((was) => {
        if (was.get(task.id)?.seq !== seq) return was;
        const next = new Map(was);
        next.delete(task.id);
        return next;
      });
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
    },
  });
  const { mutate } = mutation;

  /** Moves a task (as the server last gave it) to a status; nothing when it is already there. */
  const move = useCallback(
    (task: Task, statusId: string, shownStatusId: string) => {
      if (statusId === shownStatusId) return;
      counter.current += 1;
      mutate({ task, statusId, seq: counter.current });
    },
    [mutate],
  );

  return {
    move,
    pending,
    conflict,
    failure,
    /** Tries the move again from the newer version. */
    retry: () => {
      if (!conflict) return;
      setConflict(null);
      counter.current += 1;
      mutate({ task: conflict.latest, statusId: conflict.statusId, seq: counter.current });
    },
    dismiss: () => {
      setConflict(null);
      setFailure(null);
    },
  };
}
