// A team's board: a column per status in the team's order, each with its cards; a card moves to another
// status by drag and drop or by keyboard (Space, arrows, Space) and is saved at once (useBoardMoves).
// The filters are the list's (the same URL search params), but for status: the columns are the statuses.
// The board reads the team's whole (server-filtered) set of tasks; priority, the due range and the order
// are applied here (columns.ts).
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  rectIntersection,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { BOARD_LIMIT, teamTaskSetQuery } from '../../api/board.ts';
import { type Task, type Team, type TeamLabel, teamQuery } from '../../api/index.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { serverFilters, type TaskListSearch } from '../../lib/filters.ts';
import { CardFace } from './Card.tsx';
import { Column } from './Column.tsx';
import { columnsOf } from './columns.ts';
import { announcements, boardCoordinates, INSTRUCTIONS, KEYBOARD_CODES } from './dnd.ts';
import { MoveNotice } from './MoveNotice.tsx';
import { TaskFilters, ViewSwitch } from './TaskFilters.tsx';
import { useBoardMoves } from './useBoardMoves.ts';

const route = getRouteApi('/app/teams/$teamKey/board');

export function Board() {
  const { teamKey } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = useCallback(
    (next: TaskListSearch) => void navigate({ search: next, replace: true }),
    [navigate],
  );
  const team = useQuery(teamQuery(teamKey));
  useTitle(team.data ? `${team.data.name} · Board` : 'Board');
  return (
    <div className="page page-fill board-page">
      <header className="page-header">
        <h1>{team.data ? `${team.data.name} board` : 'Board'}</h1>
        <ViewSwitch teamKey={teamKey} search={search} />
      </header>
      {team.isPending ? <SkeletonRows label="Loading the team" /> : null}
      {team.isError ? <ErrorNotice error={team.error} /> : null}
      {team.isSuccess ? (
        <>
          <TaskFilters team={team.data} search={search} onChange={setSearch} board />
          <BoardColumns team={team.data} search={search} />
        </>
      ) : null}
    </div>
  );
}

function BoardColumns({ team, search }: { team: Team; search: TaskListSearch }) {
  const query = useQuery(teamTaskSetQuery(team.id, serverFilters(search, false)));
  const moves = useBoardMoves(team.id);
  const statuses = team.taskStatuses ?? [];
  const tasks = query.data?.tasks;
  const byId = useMemo(() => new Map((tasks ?? []).map((task) => [task.id, task])), [tasks]);
  const columns = useMemo(
    () =>
      columnsOf(
        tasks ?? [],
        (team.taskStatuses ?? []).map((s) => s.id),
        moves.pending,
        search,
      ),
    [tasks, team.taskStatuses, moves.pending, search],
  );
  const labels = useMemo(
    () => new Map<string, TeamLabel>((team.taskLabels ?? []).map((label) => [label.id, label])),
    [team.taskLabels],
  );
  const saving = useMemo(() => new Set(moves.pending.keys()), [moves.pending]);
  const [activeId, setActiveId] = useState<string | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: boardCoordinates, keyboardCodes: KEYBOARD_CODES }),
  );
  const statusName = (id: string | number) => statuses.find((s) => s.id === id)?.name ?? 'no status';
  const cardName = (id: string | number) => {
    const task = byId.get(String(id));
    return task ? `${team.publicId}-${task.publicId} ${task.name}` : 'the card';
  };
  const shownStatus = (task: Task) => moves.pending.get(task.id)?.statusId ?? task.statusId;

  const onDragStart = ({ active }: DragStartEvent) => setActiveId(String(active.id));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setActiveId(null);
    const task = byId.get(String(active.id));
    if (task && over) moves.move(task, String(over.id), shownStatus(task));
  };

  if (query.isPending) return <SkeletonRows label="Loading the board" />;
  if (query.isError) return <ErrorNotice error={query.error} />;
  const now = new Date();
  const active = activeId ? byId.get(activeId) : undefined;
  return (
    <>
      <MoveNotice
        team={team}
        conflict={moves.conflict}
        failure={moves.failure}
        onRetry={moves.retry}
        onDismiss={moves.dismiss}
      />
      {query.data.complete ? null : (
        <p className="muted small">
          The board shows the {BOARD_LIMIT} most recently changed tasks; narrow it with the filters to see the
          others.
        </p>
      )}
      <DndContext
        sensors={sensors}
        collisionDetection={rectIntersection}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setActiveId(null)}
        accessibility={{
          announcements: announcements(cardName, statusName),
          screenReaderInstructions: { draggable: INSTRUCTIONS },
        }}
      >
        <div className="board">
          {columns.map((column) => {
            const status = statuses.find((s) => s.id === column.statusId);
            return status ? (
              <Column
                key={status.id}
                status={status}
                tasks={column.tasks}
                code={team.publicId}
                labels={labels}
                now={now}
                activeId={activeId}
                saving={saving}
              />
            ) : null;
          })}
        </div>
        <DragOverlay dropAnimation={null}>
          {active ? (
            <div className="card card-overlay">
              <CardFace task={active} code={team.publicId} labels={labels} now={now} />
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
    </>
  );
}
